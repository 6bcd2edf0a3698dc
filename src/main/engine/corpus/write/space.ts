import type { Db } from '../../store/db';
import { optBool, optInt, optRecord, optStr, stringId, unmodelled } from './fields';
import { CorpusInputError } from './input-error';
import { isRecord, stringifyExact } from './json';
import { cached, makeUpsert, type Outcome } from './upsert';
import type { WriteOptions } from './tweet';

// Space details (spec 2.5) -> spaces. Times are epoch milliseconds; ended_at arrives as a string
// of digits in the service's response and is stored as an integer like the others. The creator
// object is stored whole (its shape is the platform's GraphQL user, not a corpus User).

const MODELLED = new Set([
  'id', 'state', 'title', 'media_key', 'created_at', 'scheduled_start', 'started_at', 'updated_at', 'ended_at',
  'disallow_join', 'is_employee_only', 'is_locked', 'is_space_available_for_replay', 'is_space_available_for_clipping',
  'narrow_cast_space_type', 'conversation_controls', 'total_replay_watched', 'total_live_listeners', 'creator',
]);

const COLUMNS = [
  { name: 'state', fallback: '' },
  { name: 'title', fallback: '' },
  { name: 'media_key', fallback: '' },
  { name: 'created_at_ms', fallback: 0 },
  { name: 'scheduled_start_ms', fallback: null },
  { name: 'started_at_ms', fallback: null },
  { name: 'updated_at_ms', fallback: null },
  { name: 'ended_at_ms', fallback: null },
  { name: 'disallow_join', fallback: 0 },
  { name: 'is_employee_only', fallback: 0 },
  { name: 'is_locked', fallback: 0 },
  { name: 'is_space_available_for_replay', fallback: 0 },
  { name: 'is_space_available_for_clipping', fallback: 0 },
  { name: 'narrow_cast_space_type', fallback: 0 },
  { name: 'conversation_controls', fallback: 0 },
  { name: 'total_replay_watched', fallback: 0 },
  { name: 'total_live_listeners', fallback: 0 },
  { name: 'creator_id', fallback: '' },
  { name: 'creator_json', fallback: '{}' },
  { name: 'raw_json', fallback: null, mergeJson: true },
];
const upserts = new WeakMap<Db, ReturnType<typeof makeUpsert>>();

export function upsertSpace(db: Db, space: unknown, options: WriteOptions): Outcome {
  if (!isRecord(space)) throw new CorpusInputError('space', 'expected a Space object');
  const creator = optRecord(space, 'creator');
  if (!creator) throw new CorpusInputError('creator', 'missing');
  const state = optStr(space, 'state');
  if (!state) throw new CorpusInputError('state', 'missing');
  const createdAt = optInt(space, 'created_at') ?? optInt(space, 'started_at') ?? optInt(space, 'scheduled_start');
  if (createdAt === undefined) throw new CorpusInputError('created_at', 'missing');
  const raw = unmodelled(space, MODELLED);
  const row = {
    id: stringId(space, 'id'),
    state,
    title: optStr(space, 'title'),
    media_key: optStr(space, 'media_key'),
    created_at_ms: createdAt,
    scheduled_start_ms: optInt(space, 'scheduled_start'),
    started_at_ms: optInt(space, 'started_at'),
    updated_at_ms: optInt(space, 'updated_at'),
    ended_at_ms: optInt(space, 'ended_at'),
    disallow_join: optBool(space, 'disallow_join'),
    is_employee_only: optBool(space, 'is_employee_only'),
    is_locked: optBool(space, 'is_locked'),
    is_space_available_for_replay: optBool(space, 'is_space_available_for_replay'),
    is_space_available_for_clipping: optBool(space, 'is_space_available_for_clipping'),
    narrow_cast_space_type: optInt(space, 'narrow_cast_space_type'),
    conversation_controls: optInt(space, 'conversation_controls'),
    total_replay_watched: optInt(space, 'total_replay_watched'),
    total_live_listeners: optInt(space, 'total_live_listeners'),
    creator_id: stringId(creator, 'id', 'creator.'),
    creator_json: stringifyExact(creator),
    raw_json: raw ? stringifyExact(raw) : undefined,
  };
  const upsert = cached(upserts, db, (d) => makeUpsert(d, 'spaces', 'id', COLUMNS));
  return db.inTransaction ? upsert(row, options.retrievedAtMs).outcome : db.transaction(() => upsert(row, options.retrievedAtMs).outcome)();
}
