import { upsertArticleDetails, upsertSpace, upsertTweet, upsertUser } from '../corpus/write';
import { isRecord } from '../corpus/write/json';
import { fail, SkeinError } from '../errors';
import { prep } from '../ledger/prep';
import { postRowOf, POST_SELECT } from '../reads/post-select';
import type { PostRow } from '../serialize/rows';
import { parseNumericId, parseSpaceId } from '../reads/params';
import type { ReadResult } from '../reads/result';
import { parseUserRef } from '../reads/user-profile';
import { tweetObject, type JsonObject } from '../serialize/tweet';
import type { FreshKind } from './config';
import { UpstreamError } from './errors';
import { asClientError, fetchBilled, isFresh, sharedFetch, modeOf, pathsOf, type GatewayEngine, type Served } from './gateway';
import { isPageCursor, pageByRequest, pageOfCursor, sealPageCursor, storePage, type UpstreamPage } from './pages';
import type { Requester } from './spend';

// The reads through the upstream, as the mode says (docs/decisions.md "Upstream: modes"):
// 'offline' never asks; 'cache-first' serves a stored copy while it is fresh and fetches otherwise;
// 'refresh' always fetches. What is fetched is stored in the corpus (latest retrieval wins, as the
// importers do) and then served from there by the ordinary local read, so every answer has one
// shape whatever its source. A failing upstream falls back to a stored copy, however old ('stale').

/** Items a page may hold: the spec's "about 20" (8); a page that brings more is refused unstored. */
export const MAX_PAGE_ITEMS = 100;
/**
 * What a page request holds of the budget: the most a page may bring, so the budget is hard even
 * against an upstream whose pages are larger than the real service's ~20. The cost: with a budget,
 * the last 99 items of it go to single reads only, never to a page that could pass it.
 */
export const PAGE_ITEMS_HELD = MAX_PAGE_ITEMS;

async function ensureOne(
  engine: GatewayEngine,
  who: Requester,
  kind: FreshKind,
  storedAtMs: number | undefined,
  path: () => string,
  store: (body: unknown, nowMs: number) => void,
): Promise<Served> {
  if (modeOf(engine) === 'offline') return 'local';
  if (storedAtMs !== undefined && isFresh(engine, kind, storedAtMs)) return 'cache';
  try {
    const fetch = sharedFetch(engine, path(), () =>
      fetchBilled(engine, who, path(), 1, (body, now) => {
        store(body, now);
        return { items: 1, result: undefined };
      }),
    );
    await fetch.promise;
    return fetch.joined ? 'cache' : 'upstream';
  } catch (err) {
    if (storedAtMs !== undefined && err instanceof UpstreamError) return 'stale';
    throw asClientError(err);
  }
}

// Compiled once per connection (ledger/prep.ts): preparing costs more than the lookup on a cache hit.
const retrieved = (engine: GatewayEngine, sql: string, key: unknown) => prep(engine.db, sql).pluck().get(key) as number | undefined;

/**
 * The copy the upstream just gave is as fresh as its fetch. The corpus keeps a record's retrieval
 * time when a newer copy changes nothing (so importing a file again finds it unchanged), but
 * freshness counts from when the upstream last gave it: without this, an unchanged post past its
 * window (a day) was fetched again, and paid for, on every read after.
 */
function confirmed(engine: GatewayEngine, table: 'posts' | 'articles' | 'spaces' | 'social_users', column: 'id' | 'post_id', key: unknown, nowMs: number): void {
  engine.db.prepare(`UPDATE ${table} SET retrieved_at_ms = ? WHERE ${column} = ? AND retrieved_at_ms < ?`).run(nowMs, key, nowMs);
}

/** Tweet details: the post stored, fresh, before the local read answers. */
export function ensurePost(engine: GatewayEngine, who: Requester, idRaw: unknown, parameter = 'id'): Promise<Served> {
  const id = parseNumericId(parameter, idRaw);
  const at = retrieved(engine, 'SELECT retrieved_at_ms FROM posts WHERE id = ?', id);
  return ensureOne(engine, who, 'post', at, () => pathsOf(engine).tweet(String(id)), (body, now) => {
    upsertTweet(engine.db, body, { retrievedAtMs: now });
    confirmed(engine, 'posts', 'id', id, now);
  });
}

export function ensureArticle(engine: GatewayEngine, who: Requester, idRaw: unknown): Promise<Served> {
  const id = parseNumericId('article_id', idRaw);
  const at = retrieved(engine, 'SELECT retrieved_at_ms FROM articles WHERE post_id = ?', id);
  return ensureOne(engine, who, 'article', at, () => pathsOf(engine).article(String(id)), (body, now) => {
    upsertArticleDetails(engine.db, body, { retrievedAtMs: now });
    confirmed(engine, 'articles', 'post_id', id, now);
  });
}

export function ensureSpace(engine: GatewayEngine, who: Requester, idRaw: unknown): Promise<Served> {
  const id = parseSpaceId('id', idRaw);
  const at = retrieved(engine, 'SELECT retrieved_at_ms FROM spaces WHERE id = ?', id);
  return ensureOne(engine, who, 'space', at, () => pathsOf(engine).space(id), (body, now) => {
    upsertSpace(engine.db, body, { retrievedAtMs: now });
    confirmed(engine, 'spaces', 'id', id, now);
  });
}

/** A user's profile (by id or screen name); an incomplete (id-only) user counts as not stored. */
export function ensureUser(engine: GatewayEngine, who: Requester, raw: unknown): Promise<Served> {
  const ref = parseUserRef(raw);
  const at =
    ref.id !== undefined
      ? retrieved(engine, 'SELECT retrieved_at_ms FROM social_users WHERE id = ? AND incomplete = 0', ref.id)
      : retrieved(engine, 'SELECT max(retrieved_at_ms) FROM social_users WHERE screen_name_lower = ? AND incomplete = 0', ref.screenName);
  return ensureOne(engine, who, 'user', at ?? undefined, () => pathsOf(engine).user(String(raw).replace(/^@/, '')), (body, now) => {
    upsertUser(engine.db, body, { retrievedAtMs: now });
    // upsertUser accepted it, so it names its id (as a string: the client parses ids exactly)
    const user = body as { id_str?: unknown; id?: unknown };
    confirmed(engine, 'social_users', 'id', BigInt(String(user.id_str ?? user.id)), now);
  });
}

export interface PageRead {
  result: ReadResult<{ next_cursor: string; tweets: JsonObject[] }>;
  served: Served;
}

/**
 * One page of a timeline or a search through the upstream. `request(cursor)` is the upstream path
 * of a page; `local()` the local read, used when the client's cursor is a local one (issued while
 * offline) and when the upstream fails with no page stored but the corpus holds some of it. A page
 * cursor must follow a page of this very timeline or search (`firstRequest`'s path and query, bar the cursor).
 */
async function pageVia(
  engine: GatewayEngine,
  who: Requester,
  cursorRaw: unknown,
  request: (cursor?: string) => string,
  local: () => ReadResult<{ next_cursor: string; tweets: JsonObject[] }>,
): Promise<PageRead> {
  let path: string;
  if (cursorRaw === undefined) path = request();
  else if (!isPageCursor(cursorRaw)) return { result: local(), served: 'local' };
  else {
    const previous = pageOfCursor(engine, cursorRaw);
    if (sameStream(previous.request) !== sameStream(request())) {
      throw fail.invalid('cursor', 'it belongs to another timeline or search; a cursor is valid only where it was returned.');
    }
    if (!previous.nextCursor || previous.postIds.length === 0) return { result: { value: { next_cursor: '', tweets: [] }, items: 0 }, served: 'cache' };
    path = request(previous.nextCursor);
  }
  const stored = pageByRequest(engine.db, path);
  const mode = modeOf(engine);
  if (stored && (mode === 'offline' || isFresh(engine, 'page', stored.fetchedAtMs))) return { result: serve(engine, stored), served: 'cache' };
  if (mode === 'offline') {
    if (cursorRaw !== undefined) throw fail.invalid('cursor', 'it follows an upstream page that is not stored, and the upstream mode is offline; start again without cursor.');
    return { result: local(), served: 'local' };
  }
  try {
    const fetch = sharedFetch(engine, path, () => fetchBilled(engine, who, path, PAGE_ITEMS_HELD, (body, now) => storeTweetPage(engine, path, body, now)));
    const page = await fetch.promise;
    return { result: serve(engine, page), served: fetch.joined ? 'cache' : 'upstream' };
  } catch (err) {
    if (err instanceof UpstreamError) {
      if (stored) return { result: serve(engine, stored), served: 'stale' };
      const held = cursorRaw === undefined && err.kind !== 'rejected' ? heldLocally(local) : undefined;
      if (held) return { result: held, served: 'stale' };
    }
    throw asClientError(err);
  }
}

/**
 * The local read when the corpus holds something of it (imported, or fetched by other reads).
 * Without it a failing upstream would be hidden behind a local miss: "User 987654321 was not
 * found" (404) or an empty search page (200) for what the upstream holds and could not give.
 */
function heldLocally(local: () => ReadResult<{ next_cursor: string; tweets: JsonObject[] }>): ReadResult<{ next_cursor: string; tweets: JsonObject[] }> | undefined {
  try {
    const result = local();
    return result.value.tweets.length > 0 ? result : undefined;
  } catch (err) {
    if (err instanceof SkeinError && err.code === 'not_found') return undefined;
    throw err;
  }
}

/** A page request without its cursor: the stream (timeline or search) it belongs to. */
function sameStream(path: string): string {
  const [base = '', query = ''] = path.split('?');
  const q = new URLSearchParams(query);
  q.delete('cursor');
  q.sort();
  return `${base}?${q.toString()}`;
}

/** Stores a `{next_cursor, tweets}` answer: each tweet in the corpus, and the page itself. */
export function storeTweetPage(engine: Pick<GatewayEngine, 'db'>, path: string, body: unknown, nowMs: number): { items: number; result: UpstreamPage } {
  const tweets = isRecord(body) && Array.isArray(body.tweets) ? (body.tweets as unknown[]) : null;
  if (!tweets) throw new UpstreamError('bad_response', `The upstream's answer to ${path.split('?')[0]} is not a page of tweets ({next_cursor, tweets}); is the profile right?`);
  if (tweets.length > MAX_PAGE_ITEMS) throw new UpstreamError('bad_response', `The upstream's page holds ${tweets.length} tweets, more than ${MAX_PAGE_ITEMS}.`);
  const ids: bigint[] = [];
  for (const t of tweets) {
    upsertTweet(engine.db, t, { retrievedAtMs: nowMs });
    ids.push(BigInt(String((t as { id_str?: unknown; id?: unknown }).id_str ?? (t as { id?: unknown }).id)));
  }
  const next = isRecord(body) && typeof body.next_cursor === 'string' && body.next_cursor !== '' ? body.next_cursor : null;
  return { items: tweets.length, result: storePage(engine.db, path, next, ids, nowMs) };
}

const PAGE_POSTS = `${POST_SELECT} WHERE p.id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`;

/** A stored page as our answer: its posts from the corpus, in the upstream's order. */
function serve(engine: GatewayEngine, page: UpstreamPage): ReadResult<{ next_cursor: string; tweets: JsonObject[] }> {
  // One statement for the page's posts, not one per post (bench/upstream: 224 µs against 328 µs a page).
  const rows = new Map<bigint, PostRow>();
  const statement = prep(engine.db, PAGE_POSTS).safeIntegers(true).raw(true);
  for (const raw of statement.all(JSON.stringify(page.postIds.map(String))) as unknown[][]) {
    const row = postRowOf(raw);
    rows.set(row.id, row);
  }
  const users = new Map<bigint, JsonObject>();
  const tweets: JsonObject[] = [];
  for (const id of page.postIds) {
    const row = rows.get(id);
    if (row && row.u_protected === 0n) tweets.push(tweetObject(row, 'timeline', users));
  }
  return { value: { next_cursor: tweets.length ? sealPageCursor(engine, page.seq) : '', tweets }, items: tweets.length };
}

export function timelineVia(
  engine: GatewayEngine,
  who: Requester,
  kind: 'tweets' | 'tweets-and-replies',
  userIdRaw: unknown,
  cursorRaw: unknown,
  local: () => ReadResult<{ next_cursor: string; tweets: JsonObject[] }>,
): Promise<PageRead> {
  const userId = String(parseNumericId('user_id', userIdRaw));
  return pageVia(engine, who, cursorRaw, (cursor) => pathsOf(engine).timeline(kind, userId, cursor), local);
}

export function searchVia(
  engine: GatewayEngine,
  who: Requester,
  query: string,
  type: 'Latest' | 'Top',
  cursorRaw: unknown,
  local: () => ReadResult<{ next_cursor: string; tweets: JsonObject[] }>,
): Promise<PageRead> {
  return pageVia(engine, who, cursorRaw, (cursor) => pathsOf(engine).search(query, { type, ...(cursor ? { cursor } : {}) }), local);
}
