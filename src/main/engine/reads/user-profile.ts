import type { Statement } from 'better-sqlite3';
import type { Engine } from '../engine';
import { fail } from '../errors';
import type { AuthorRow } from '../serialize/rows';
import { userObject } from '../serialize/tweet';
import type { Db } from '../store/db';
import { idOfDigits, preview } from './params';
import type { ReadResult } from './result';

// A user's profile, as the service's GET /twitter/user/<id or screen_name> answers it: the User
// object of 2.2 in the detail shape (numeric id first, exact). Not in our spec (an extension for
// scripts written against the real service; docs/api.md "The real service's paths").

const PARAMETER = 'user';
// The platform's handles are letters, digits and _ (15 at most today; older ones are longer).
const SCREEN_NAME = /^@?([A-Za-z0-9_]{1,50})$/;

// The author columns under the names userObject reads (AuthorRow). An incomplete user (a post's
// author the source named but did not describe, migration 051) has no profile to give.
const COLUMNS = `id AS user_id, screen_name AS u_screen_name, name AS u_name, location AS u_location, url AS u_url,
  description AS u_description, protected AS u_protected, verified AS u_verified, followers_count AS u_followers_count,
  friends_count AS u_friends_count, listed_count AS u_listed_count, favourites_count AS u_favourites_count,
  statuses_count AS u_statuses_count, created_at_us AS u_created_at_us, profile_banner_url AS u_profile_banner_url,
  profile_image_url_https AS u_profile_image_url_https, can_dm AS u_can_dm, incomplete`;

type ProfileRow = AuthorRow & { incomplete: bigint };

interface Statements {
  byId: Statement;
  /** Screen names pass from one account to another over the years: the latest retrieved holder wins. */
  byScreenName: Statement;
}

const cache = new WeakMap<Db, Statements>();

function statementsOf(db: Db): Statements {
  let s = cache.get(db);
  if (!s) {
    s = {
      byId: db.prepare(`SELECT ${COLUMNS} FROM social_users WHERE id = ?`).safeIntegers(true),
      byScreenName: db
        .prepare(`SELECT ${COLUMNS} FROM social_users WHERE screen_name_lower = ? AND incomplete = 0 ORDER BY retrieved_at_ms DESC, id DESC LIMIT 1`)
        .safeIntegers(true),
    };
    cache.set(db, s);
  }
  return s;
}

export interface UserRef {
  /** Digits that fit an id; they may also be a screen name. */
  id?: bigint;
  screenName?: string;
}

/** The request's user as an id and/or a screen name; 422 naming `user` for anything else. */
export function parseUserRef(raw: unknown): UserRef {
  if (raw === undefined || raw === null || raw === '') throw fail.missing(PARAMETER);
  if (typeof raw !== 'string') throw fail.invalid(PARAMETER, 'give it once, as text.');
  const screenName = SCREEN_NAME.exec(raw)?.[1]?.toLowerCase();
  const id = idOfDigits(raw);
  if (id !== null) return { id, screenName };
  if (screenName === undefined) {
    throw fail.invalid(PARAMETER, `give a numeric user id or a screen name (letters, digits and _), got '${preview(raw)}'.`);
  }
  return { screenName };
}

/**
 * The stored user a reference names: digits are an id first and, when no user has that id, a
 * screen name (all-digit handles exist); a screen name finds its latest retrieved holder. An
 * incomplete user (known by id only) is found by id, with `incomplete` set.
 */
export function findUserByRef(db: Db, ref: UserRef): ProfileRow | undefined {
  const s = statementsOf(db);
  const byId = ref.id === undefined ? undefined : (s.byId.get(ref.id) as ProfileRow | undefined);
  if (byId || ref.screenName === undefined) return byId;
  return s.byScreenName.get(ref.screenName) as ProfileRow | undefined;
}

/**
 * The profile of a user named by numeric id or by screen name (`@` optional, any case). A
 * protected account's profile is served, `protected: true`, as the platform shows it to anyone.
 * One item.
 */
export function readUserProfile(engine: Pick<Engine, 'db'>, raw: unknown): ReadResult {
  const row = findUserByRef(engine.db, parseUserRef(raw));
  if (row?.incomplete) {
    throw fail.notFound(`User ${row.user_id} was not found: Skein holds no profile for this id, only posts that name it as their author.`);
  }
  if (!row) throw fail.notFound(`User ${String(raw)} was not found.`);
  return { value: userObject(row, 'detail'), items: 1 };
}
