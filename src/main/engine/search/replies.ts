import { fail } from '../errors';
import type { Db } from '../store/db';
import { decodeKeyset, encodeKeyset } from './cursor';
import { countMatches, MAX_PAGE_SIZE, pageSql, searchPage, type SearchPage } from './page';
import { publicAuthorPredicates } from './protected';
import { countOf, inSnapshot, statement, type Row } from './statements';

// Reply collection (spec 1 and 4.6): a post's direct replies and their replies (levels 1 and 2
// counted from that post), newest first, by keyset pages like a Latest search. For a conversation's
// root this is the spec's own search, `conversation_id:<id>` at reply depths 1 and 2. A post in the
// middle of a conversation is not a conversation id, so that search finds nothing for it; its
// levels are followed by in_reply_to_status_id instead (index posts_in_reply_to). Protected
// accounts' replies are left out either way (protected.ts); a public reply under a protected one
// still counts as the level it is at.

export interface RepliesRequest {
  tweetId: bigint;
  /** Exclusive: only replies with a larger id (the job stops there). */
  sinceId?: bigint;
  /** The previous page's nextCursor (`L:<id>`); absent or null for the first page. */
  cursor?: string | null;
  limit: number;
}

const LEVELS = { min: 1, max: 2 };

/** Whether the post is its conversation's root (a post not stored is treated as one: nothing else to follow). */
function isRoot(db: Db, tweetId: bigint): boolean {
  const row = statement(db, 'SELECT conversation_id = id FROM posts WHERE id = ?').pluck().get(tweetId) as bigint | undefined;
  return row === undefined || row === 1n;
}

const conversationQuery = (tweetId: bigint) => `conversation_id:${tweetId}`;

const searchOf = (request: RepliesRequest) => ({
  query: conversationQuery(request.tweetId),
  type: 'Latest' as const,
  cursor: request.cursor ?? null,
  limit: request.limit,
  replyDepth: LEVELS,
  ...(request.sinceId === undefined ? {} : { sinceId: request.sinceId }),
});

export function repliesPage(db: Db, request: RepliesRequest): SearchPage {
  return inSnapshot(db, () => repliesPageOf(db, request));
}

function repliesPageOf(db: Db, request: RepliesRequest): SearchPage {
  if (isRoot(db, request.tweetId)) return searchPage(db, searchOf(request));
  const { sql, params } = subtreePageSql(db, request);
  const rows = statement(db, sql).raw(true).all(...params) as Row[];
  const { limit } = request;
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  const endCursor = last ? encodeKeyset({ type: 'Latest', id: last[0] }) : null;
  return { ids: page.map((r) => r[0]), nextCursor: more ? endCursor : null, endCursor };
}

/** The SQL of one page (limit + 1 rows) and its parameters, for EXPLAIN QUERY PLAN in tests. */
export function repliesPageSql(db: Db, request: RepliesRequest): { sql: string; params: unknown[] } {
  return isRoot(db, request.tweetId) ? pageSql(db, searchOf(request)) : subtreePageSql(db, request);
}

function subtreePageSql(db: Db, request: RepliesRequest): { sql: string; params: unknown[] } {
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_PAGE_SIZE) {
    throw fail.invalid('limit', `expected a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const before = request.cursor ? decodeKeyset(request.cursor, 'Latest').id : null;
  const n = request.limit + 1;
  const level = subtreeLevels(db, request.tweetId, request.sinceId ?? null, before);
  // Each level is an ordered range stopping at n (level 2 sorts its candidates: they come from
  // several parents); the two merge into one page.
  return {
    sql: `SELECT id FROM (${level.sql[0]} ORDER BY p.id DESC LIMIT ?) UNION ALL SELECT id FROM (${level.sql[1]} ORDER BY p.id DESC LIMIT ?) ORDER BY id DESC LIMIT ?`,
    params: [...level.params, n, ...level.params, n, n],
  };
}

/** How many replies the job would collect, counting at most `cap` (a job's hold and progress total). */
export function countReplies(db: Db, request: Omit<RepliesRequest, 'cursor' | 'limit'>, cap: number): number {
  return inSnapshot(db, () => countRepliesOf(db, request, cap));
}

function countRepliesOf(db: Db, request: Omit<RepliesRequest, 'cursor' | 'limit'>, cap: number): number {
  const { tweetId, sinceId } = request;
  if (isRoot(db, tweetId)) {
    return countMatches(db, { query: conversationQuery(tweetId), replyDepth: LEVELS, ...(sinceId === undefined ? {} : { sinceId }) }, cap);
  }
  const level = subtreeLevels(db, tweetId, sinceId ?? null, null);
  return countOf(db, `SELECT count(*) FROM (${level.sql[0]} UNION ALL ${level.sql[1]} LIMIT ?)`, [...level.params, ...level.params, cap]);
}

/**
 * The SELECTs of levels 1 and 2 under a post that is not a root, over `posts AS p` (the reply)
 * with the same parameters each: direct replies by posts_in_reply_to; second-level ones as the
 * replies of each direct reply (a nested loop over the same index). The post itself is left out,
 * so a cycle in hostile data cannot make it its own reply.
 */
function subtreeLevels(db: Db, tweetId: bigint, sinceId: bigint | null, before: bigint | null): { sql: [string, string]; params: unknown[] } {
  const where = ['p.id <> ?'];
  const params: unknown[] = [tweetId, tweetId];
  if (sinceId !== null) {
    where.push('p.id > ?');
    params.push(sinceId);
  }
  if (before !== null) {
    where.push('p.id < ?');
    params.push(before);
  }
  for (const guard of publicAuthorPredicates(db)) {
    where.push(guard.sql);
    params.push(...guard.params);
  }
  const rest = where.join(' AND ');
  return {
    sql: [
      `SELECT p.id AS id FROM posts AS p INDEXED BY posts_in_reply_to WHERE p.in_reply_to_status_id = ? AND ${rest}`,
      `SELECT p.id AS id FROM posts AS d INDEXED BY posts_in_reply_to CROSS JOIN posts AS p INDEXED BY posts_in_reply_to ` +
        `ON p.in_reply_to_status_id = d.id WHERE d.in_reply_to_status_id = ? AND ${rest}`,
    ],
    params,
  };
}
