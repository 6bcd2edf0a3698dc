import { fail } from '../errors';
import type { Db } from '../store/db';
import type { QueryNode } from './ast';
import { compileQuery, type CompileOptions, type CompiledQuery } from './compile';
import { decodeKeyset, encodeKeyset, type Keyset, type SearchType } from './cursor';
import { baseWhere, countOf, statement, type Row } from './statements';
import { TOP_SCORE_SQL, topPlan, topRows } from './top';

export { TOP_SCORE_SQL } from './top';

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

export function searchPage(db: Db, request: SearchRequest): SearchPage {
  const c = prepare(db, request);
  if (!c.q.union && c.q.where.sql === '0') return { ids: [], nextCursor: null, endCursor: null }; // matches nothing
  // One row past the page tells whether another page exists, so the last page says so (null).
  let rows: Row[];
  if (c.type === 'Top' && !c.q.union) rows = topRows(db, c.q, c.keyset?.type === 'Top' ? c.keyset : null, c.n);
  else {
    const { sql, params } = buildSql(db, c);
    rows = statement(db, sql).raw(true).all(...params) as Row[];
  }
  const more = rows.length > request.limit;
  const page = more ? rows.slice(0, request.limit) : rows;
  const last = page[page.length - 1];
  const endCursor = last
    ? encodeKeyset(c.type === 'Top' ? { type: 'Top', score: last[1] ?? 0n, id: last[0] } : { type: 'Latest', id: last[0] })
    : null;
  return { ids: page.map((r) => r[0]), nextCursor: more ? endCursor : null, endCursor };
}

/**
 * The SQL of one page (limit + 1 rows) and its parameters; for EXPLAIN QUERY PLAN in tests and
 * benches. A Top page without UNION arms runs the same index ranges step by step (top.ts).
 */
export function pageSql(db: Db, request: SearchRequest): { sql: string; params: unknown[]; type: SearchType } {
  const c = prepare(db, request);
  return { ...buildSql(db, c), type: c.type };
}

interface Prepared {
  type: SearchType;
  keyset: Keyset | null;
  q: CompiledQuery;
  n: number;
}

function prepare(db: Db, request: SearchRequest): Prepared {
  const type = request.type ?? 'Latest';
  if (type !== 'Latest' && type !== 'Top') throw fail.invalid('type', "expected 'Latest' or 'Top'");
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_PAGE_SIZE) {
    throw fail.invalid('limit', `expected a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const keyset = request.cursor ? decodeKeyset(request.cursor, type) : null;
  return { type, keyset, q: compileQuery(db, request.query, request), n: request.limit + 1 };
}

function buildSql(db: Db, { type, keyset, q, n }: Prepared): { sql: string; params: unknown[] } {
  if (!q.union) return planSql(db, q, type, keyset, n);
  // One ordered, limited arm per OR branch; SQLite merges them (MERGE (UNION)) and UNION drops a
  // post that two branches both match.
  const arms = q.union.map((arm) => planSql(db, arm, type, keyset, n));
  const columns = type === 'Top' ? 'id, score' : 'id';
  const order = type === 'Top' ? 'score DESC, id DESC' : 'id DESC';
  const sql = `${arms.map((a) => `SELECT ${columns} FROM (${a.sql})`).join(' UNION ')} ORDER BY ${order} LIMIT ?`;
  return { sql, params: [...arms.flatMap((a) => a.params), n] };
}

/** One compiled plan as an ordered SELECT of (id) or (id, score), at most n rows after the keyset. */
function planSql(db: Db, compiled: CompiledQuery, type: SearchType, keyset: Keyset | null, n: number): { sql: string; params: unknown[] } {
  const q = type === 'Top' ? topPlan(db, compiled) : compiled;
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
  return countOf(db, sql, [...parts.flatMap((p) => p.params), cap]);
}
