import type { Statement } from 'better-sqlite3';
import { fail } from '../errors';
import type { Db } from '../store/db';
import type { QueryNode } from './ast';
import { compileQuery, type CompileOptions, type CompiledQuery } from './compile';
import { decodeKeyset, encodeKeyset, type Keyset, type SearchType } from './cursor';

// Keyset paging over a compiled query: no OFFSET, so page 50,000 costs what page 1 costs and a
// job's memory stays flat; a page depends on the previous one only through its cursor string.

export interface SearchRequest extends CompileOptions {
  query: string | QueryNode;
  type?: SearchType;
  cursor?: string | null;
  limit: number;
}

export interface SearchPage {
  ids: bigint[];
  /** Null on the last page. */
  nextCursor: string | null;
  /**
   * The keyset after this page's last post, even on the last page (null when the page is empty):
   * what the HTTP route hands out, so a kept cursor also finds matches imported later.
   */
  endCursor: string | null;
}

/** Largest page: a job pages in batches of at most this many rows (about 1 MB of tweets). */
export const MAX_PAGE_SIZE = 1000;

/**
 * Top's engagement score, the same expression as the posts_top_score index (migration 040), so
 * a broad Top search walks that index in order.
 */
export const TOP_SCORE_SQL = '(p.favorite_count + 2 * p.retweet_count + 3 * p.quote_count + p.reply_count)';

export function searchPage(db: Db, request: SearchRequest): SearchPage {
  const { sql, params, type } = pageSql(db, request);
  // One row past the page tells whether another page exists, so the last page says so (null).
  const rows = statement(db, sql).all(...params) as { id: bigint; score?: bigint }[];
  const more = rows.length > request.limit;
  const page = more ? rows.slice(0, request.limit) : rows;
  const last = page[page.length - 1];
  const endCursor = last
    ? encodeKeyset(type === 'Top' ? { type: 'Top', score: last.score ?? 0n, id: last.id } : { type: 'Latest', id: last.id })
    : null;
  return { ids: page.map((r) => r.id), nextCursor: more ? endCursor : null, endCursor };
}

/** The SQL of one page (limit + 1 rows) and its parameters; for EXPLAIN QUERY PLAN in tests and benches. */
export function pageSql(db: Db, request: SearchRequest): { sql: string; params: unknown[]; type: SearchType } {
  const type = request.type ?? 'Latest';
  if (type !== 'Latest' && type !== 'Top') throw fail.invalid('type', "expected 'Latest' or 'Top'");
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_PAGE_SIZE) {
    throw fail.invalid('limit', `expected a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const keyset = request.cursor ? decodeKeyset(request.cursor, type) : null;
  const q = compileQuery(db, request.query, request);
  const n = request.limit + 1;
  if (!q.union) return { ...planSql(q, type, keyset, n), type };
  // One ordered, limited arm per OR branch; SQLite merges them (MERGE (UNION)) and UNION drops a
  // post that two branches both match.
  const arms = q.union.map((arm) => planSql(arm, type, keyset, n));
  const columns = type === 'Top' ? 'id, score' : 'id';
  const order = type === 'Top' ? 'score DESC, id DESC' : 'id DESC';
  const sql = `${arms.map((a) => `SELECT ${columns} FROM (${a.sql})`).join(' UNION ')} ORDER BY ${order} LIMIT ?`;
  return { sql, params: [...arms.flatMap((a) => a.params), n], type };
}

/** One compiled plan as an ordered SELECT of (id) or (id, score), at most n rows after the keyset. */
function planSql(q: CompiledQuery, type: SearchType, keyset: Keyset | null, n: number): { sql: string; params: unknown[] } {
  const { where, params } = baseWhere(q);
  if (type === 'Latest') {
    if (keyset?.type === 'Latest') {
      where.push(`${q.idColumn} < ?`);
      params.push(keyset.id);
    }
    const from = q.where.sql === '1' && q.bareFrom !== null ? q.bareFrom : q.from;
    return { sql: `SELECT ${q.idColumn} AS id FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${q.idColumn} DESC LIMIT ?`, params: [...params, n] };
  }

  // Top orders by p.id (not the driver's column) so that the order matches posts_top_score.
  const select = `SELECT p.id AS id, ${TOP_SCORE_SQL} AS score FROM ${q.from} WHERE ${where.join(' AND ')}`;
  const order = `ORDER BY ${TOP_SCORE_SQL} DESC, p.id DESC`;
  if (keyset?.type !== 'Top') return { sql: `${select} ${order} LIMIT ?`, params: [...params, n] };
  // After (score, id): the rest of the score's tie group, then the lower scores. Two index
  // ranges, (score = s AND id < i) and (score < s), each stopping after a page; SQLite does not
  // use a row-value comparison on an expression index as a range, and one "score <= s" range
  // would rescan a large tie group (every post with score 0) on each page.
  const sql =
    `SELECT id, score FROM (${select} AND ${TOP_SCORE_SQL} = ? AND p.id < ? ORDER BY p.id DESC LIMIT ?) ` +
    `UNION ALL SELECT id, score FROM (${select} AND ${TOP_SCORE_SQL} < ? ${order} LIMIT ?) ` +
    'ORDER BY score DESC, id DESC LIMIT ?';
  return { sql, params: [...params, keyset.score, keyset.id, n, ...params, keyset.score, n, n] };
}

/** Matches of a query, counting at most `cap` (a job's progress total). */
export function countMatches(db: Db, request: Omit<SearchRequest, 'cursor' | 'limit' | 'type'>, cap = 1_000_000): number {
  const q = compileQuery(db, request.query, request);
  const parts = (q.union ?? [q]).map((arm) => {
    const { where, params } = baseWhere(arm);
    return { sql: `SELECT ${arm.idColumn} AS id FROM ${arm.from} WHERE ${where.join(' AND ')}`, params };
  });
  const sql = `SELECT count(*) FROM (${parts.map((p) => p.sql).join(' UNION ')} LIMIT ?)`;
  return Number(statement(db, sql).pluck().safeIntegers(false).get(...parts.flatMap((p) => p.params), cap));
}

function baseWhere(q: CompiledQuery): { where: string[]; params: unknown[] } {
  const where = [q.driverWhere.sql, q.where.sql];
  const params = [...q.driverWhere.params, ...q.where.params];
  if (q.lowId !== null) {
    where.push(`${q.idColumn} > ?`);
    params.push(q.lowId);
  }
  if (q.highId !== null) {
    where.push(`${q.idColumn} <= ?`);
    params.push(q.highId);
  }
  return { where, params };
}

// Prepared statements per database, keyed by SQL text; queries differ in shape far less than in
// values, and the cache is bounded so a stream of odd queries cannot grow it without limit.
const MAX_CACHED_STATEMENTS = 200;
const cache = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

function statement(db: Db, sql: string): Statement<unknown[]> {
  let byDb = cache.get(db);
  if (!byDb) cache.set(db, (byDb = new Map()));
  let stmt = byDb.get(sql);
  if (!stmt) {
    if (byDb.size >= MAX_CACHED_STATEMENTS) byDb.delete(byDb.keys().next().value!);
    stmt = db.prepare<unknown[]>(sql).safeIntegers(true);
    byDb.set(sql, stmt);
  }
  return stmt;
}
