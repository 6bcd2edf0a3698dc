import type { Db } from '../../store/db';
import { id, nullableStr, optBool, optInt, optStr, unmodelled } from './fields';
import { CorpusInputError } from './input-error';
import { isRecord, stringifyExact } from './json';
import { timestampUs } from './time';
import { cached, makeUpsert, type UpsertResult } from './upsert';

// The nested User of spec 2.2 -> social_users. Keys listed here have columns; any other key the
// source gave goes to raw_json.
const MODELLED = new Set([
  'id', 'id_str', 'name', 'screen_name', 'location', 'url', 'description', 'protected', 'verified',
  'followers_count', 'friends_count', 'listed_count', 'favourites_count', 'statuses_count',
  'created_at', 'profile_banner_url', 'profile_image_url_https', 'can_dm',
]);

const COLUMNS = [
  { name: 'screen_name', fallback: '' },
  { name: 'screen_name_lower', fallback: '' },
  { name: 'name', fallback: '' },
  { name: 'location', fallback: '' },
  { name: 'url', fallback: null },
  { name: 'description', fallback: '' },
  { name: 'protected', fallback: 0 },
  { name: 'verified', fallback: 0 },
  { name: 'followers_count', fallback: 0 },
  { name: 'friends_count', fallback: 0 },
  { name: 'listed_count', fallback: 0 },
  { name: 'favourites_count', fallback: 0 },
  { name: 'statuses_count', fallback: 0 },
  // 0 (1970) only when a source never gave the account's creation time (v2 without user.fields).
  { name: 'created_at_us', fallback: 0 },
  { name: 'profile_banner_url', fallback: '' },
  { name: 'profile_image_url_https', fallback: '' },
  { name: 'can_dm', fallback: 0 },
  { name: 'raw_json', fallback: null, mergeJson: true },
  // 1: the source named this user (an id) but did not describe it (no screen_name): migration 051.
  { name: 'incomplete', fallback: 0 },
];

const upserts = new WeakMap<Db, ReturnType<typeof makeUpsert>>();

export interface UserRow {
  id: bigint;
  [column: string]: unknown;
}

/**
 * Columns of a User object; undefined where the source did not say. A user with an id but no
 * screen_name (a withheld or suspended author missing from twarc2's includes, v1.1 trim_user) is
 * kept as incomplete: its posts are stored and served, and a full copy of the user replaces it.
 */
export function userRow(user: unknown, path = 'user.'): UserRow {
  if (!isRecord(user)) throw new CorpusInputError(path.replace(/\.$/, ''), 'expected a user object');
  const screenName = optStr(user, 'screen_name', path) || undefined;
  const raw = unmodelled(user, MODELLED);
  return {
    id: id(user, 'id', path),
    incomplete: screenName === undefined ? 1 : 0,
    screen_name: screenName,
    screen_name_lower: screenName?.toLowerCase(),
    name: optStr(user, 'name', path),
    location: optStr(user, 'location', path),
    url: nullableStr(user, 'url', path),
    description: optStr(user, 'description', path),
    protected: optBool(user, 'protected', path),
    verified: optBool(user, 'verified', path),
    followers_count: optInt(user, 'followers_count', path),
    friends_count: optInt(user, 'friends_count', path),
    listed_count: optInt(user, 'listed_count', path),
    favourites_count: optInt(user, 'favourites_count', path),
    statuses_count: optInt(user, 'statuses_count', path),
    created_at_us: user.created_at === undefined || user.created_at === null ? undefined : timestampUs(user.created_at, `${path}created_at`),
    profile_banner_url: optStr(user, 'profile_banner_url', path),
    profile_image_url_https: optStr(user, 'profile_image_url_https', path),
    can_dm: optBool(user, 'can_dm', path),
    raw_json: raw ? stringifyExact(raw) : undefined,
  };
}

export function upsertUserRow(db: Db, row: UserRow, retrievedAtMs: number): UpsertResult {
  return cached(upserts, db, (d) => makeUpsert(d, 'social_users', 'id', COLUMNS, { standIn: 'incomplete' }))(row, retrievedAtMs);
}

/** Stores one User object of spec 2.2 on its own (v2 includes, X archive account). */
export function upsertUser(db: Db, user: unknown, options: { retrievedAtMs: number }): 'added' | 'updated' | 'unchanged' {
  return upsertUserRow(db, userRow(user, ''), options.retrievedAtMs).outcome;
}
