import type { Engine } from '../engine';
import { fail } from '../errors';
import { tweetObject, type JsonObject } from '../serialize/tweet';
import { decodeCursor, encodeCursor, type TimelineKind } from './cursor';
import { parseNumericId } from './params';
import type { JsonReadResult, ReadResult } from './result';
import { secret } from './secrets';
import { postRowOf } from './post-select';
import { statements } from './statements';

export type { TimelineKind } from './cursor';

const INT64_MAX = 9223372036854775807n;
const CURSOR_SECRET = 'timeline_cursor';

export interface TimelinePage extends JsonObject {
  next_cursor: string;
  tweets: JsonObject[];
}

type ReadEngine = Pick<Engine, 'db' | 'ids' | 'clock'>;

const keys = new WeakMap<object, Buffer>();
function cursorKey(engine: ReadEngine): Buffer {
  let key = keys.get(engine.db);
  if (!key) {
    key = secret(engine, CURSOR_SECRET);
    keys.set(engine.db, key);
  }
  return key;
}

/**
 * The parameters of a timeline request, checked (422 naming the parameter) without touching the
 * corpus: the HTTP routes run this before the balance check, so a bad parameter is never a 402.
 */
export function checkTimelineRequest(engine: ReadEngine, kind: TimelineKind, userIdRaw: unknown, cursorRaw?: unknown) {
  const userId = parseNumericId('user_id', userIdRaw);
  const after = cursorRaw === undefined ? undefined : decodeCursor(cursorKey(engine), cursorRaw, { kind, userId });
  return { userId, after };
}

/**
 * One page of a user's timeline (spec 4.1 `tweets`: posts that are not replies; 4.2
 * `tweets-and-replies`: all), newest first, 20 per page. `userIdRaw` and `cursorRaw` are the
 * request's strings, checked here so the HTTP routes and the IPC handlers refuse the same input.
 *
 * next_cursor (spec: "not shown" on the last page; docs/decisions.md): a page with tweets always
 * carries a cursor to the posts after its last one; a page without tweets carries "". So a loop
 * "until tweets is empty" and a loop "while next_cursor" both end, and a kept cursor still finds
 * older posts imported later.
 */
export function readTimeline(engine: ReadEngine, kind: TimelineKind, userIdRaw: unknown, cursorRaw?: unknown): ReadResult<TimelinePage> {
  const { userId, upTo, key, s } = pageStart(engine, kind, userIdRaw, cursorRaw);
  const rows = ((kind === 'tweets' ? s.timelineTweets : s.timelineAll).all(userId, upTo) as unknown[][]).map(postRowOf);
  // One author per page: its User object is built once and shared by the page's tweets.
  const users = new Map<bigint, JsonObject>();
  const tweets = rows.map((row) => tweetObject(row, 'timeline', users));
  const last = rows[rows.length - 1];
  const next_cursor = last ? encodeCursor(key, { kind, userId, lastId: last.id }) : '';
  return { value: { next_cursor, tweets }, items: tweets.length };
}

/**
 * readTimeline as JSON text, the tweets written by SQLite (serialize/tweet-json-sql.ts): the same
 * bytes as toJson(readTimeline(...).value), for the HTTP answer.
 */
export function readTimelineJson(engine: ReadEngine, kind: TimelineKind, userIdRaw: unknown, cursorRaw?: unknown): JsonReadResult {
  const { userId, upTo, key, s } = pageStart(engine, kind, userIdRaw, cursorRaw);
  const rows = (kind === 'tweets' ? s.timelineTweetsJson : s.timelineAllJson).all(userId, upTo) as [bigint, string][];
  const last = rows[rows.length - 1];
  const next_cursor = last ? encodeCursor(key, { kind, userId, lastId: last[0] }) : '';
  return { json: `{"next_cursor":${JSON.stringify(next_cursor)},"tweets":[${rows.map((r) => r[1]).join(',')}]}`, items: rows.length };
}

/** The checks both forms of a page make, and where the page starts (404 unknown user, 403 protected). */
function pageStart(engine: ReadEngine, kind: TimelineKind, userIdRaw: unknown, cursorRaw: unknown) {
  const { userId, after } = checkTimelineRequest(engine, kind, userIdRaw, cursorRaw);
  const key = cursorKey(engine);
  const s = statements(engine.db);
  const user = s.user.get(userId) as { id: bigint; protected: bigint } | undefined;
  if (!user) throw fail.notFound(`User ${userId} was not found.`);
  if (user.protected !== 0n) throw fail.forbidden(`User ${userId}'s profile is protected: its timeline is not available.`);
  return { userId, upTo: after ? after.lastId - 1n : INT64_MAX, key, s };
}
