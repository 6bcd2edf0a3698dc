import { fail } from '../errors';
import type { Db } from '../store/db';
import type { QueryNode } from './ast';
import { compileQuery, type CompileOptions, type CompiledQuery } from './compile';
import { decodeKeyset, encodeKeyset, type Keyset, type SearchType } from './cursor';
import { baseWhere, countOf, inSnapshot, statement, type Row } from './statements';
import { TOP_SCORE_SQL, topPlan, topRows, topTuning } from './top';

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
  // One snapshot for the compile's lookups and the page's statements (statements.ts inSnapshot).
  return inSnapshot(db, () => pageOf(db, request));
}

function pageOf(db: Db, request: SearchRequest): SearchPage {
  const c = prepare(db, request);
  if (!c.q.union && c.q.where.sql === '0') return { ids: [], nextCursor: null, endCursor: null }; // matches nothing
  // One row past the page tells whether another page exists, so the last page says so (null).
  const rows = c.drop ? keptRows(db, c, c.drop) : readRows(db, c, c.keyset, c.n);
  const more = rows.ids.length > request.limit;
  const count = more ? request.limit : rows.ids.length;
  const ids = more ? rows.ids.slice(0, count) : rows.ids;
  const endCursor = count > 0 ? encodeKeyset(keysetAt(c.type, rows, count - 1)) : null;
  return { ids, nextCursor: more ? endCursor : null, endCursor };
}

/** Ids in the page's order, with their scores for Top. */
interface Rows {
  ids: bigint[];
  scores: bigint[] | null;
}

/** At most n rows after `keyset`. Latest reads plain ids (pluck: no array per row, 3 µs of a 20 µs first page). */
function readRows(db: Db, c: Prepared, keyset: Keyset | null, n: number): Rows {
  if (c.type === 'Top' && !c.q.union) return split(topRows(db, c.q, keyset?.type === 'Top' ? keyset : null, n));
  const { sql, params } = buildSql(db, { ...c, keyset, n });
  if (c.type === 'Latest') return { ids: statement(db, sql).pluck(true).all(...params) as bigint[], scores: null };
  return split(statement(db, sql).raw(true).all(...params) as Row[]);
}

function split(rows: Row[]): Rows {
  return { ids: rows.map((r) => r[0]), scores: rows.map((r) => r[1] ?? 0n) };
}

function keysetAt(type: SearchType, rows: Rows, i: number): Keyset {
  return type === 'Top' ? { type: 'Top', score: rows.scores?.[i] ?? 0n, id: rows.ids[i]! } : { type: 'Latest', id: rows.ids[i]! };
}

/**
 * The page without the protected accounts' few posts (CompiledQuery.excludeIds), dropped after
 * reading rather than by a NOT IN list that SQLite builds on every run (10 µs of a 15 µs first
 * page of `#tag` at 1M posts). When a read loses rows to the drop, the next read continues after
 * the last row read, until the page is full or the matches end: exact, and one read when no
 * protected post falls in the page.
 */
function keptRows(db: Db, c: Prepared, drop: Set<bigint>): Rows {
  const kept: Rows = { ids: [], scores: c.type === 'Top' ? [] : null };
  let keyset = c.keyset;
  for (;;) {
    const want = c.n - kept.ids.length;
    const read = readRows(db, c, keyset, want);
    read.ids.forEach((id, i) => {
      if (drop.has(id)) return;
      kept.ids.push(id);
      kept.scores?.push(read.scores?.[i] ?? 0n);
    });
    if (read.ids.length < want || kept.ids.length >= c.n) return kept;
    keyset = keysetAt(c.type, read, read.ids.length - 1);
  }
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
  /** Rows to read: the page and one more, to tell whether another follows. */
  n: number;
  /** Protected accounts' posts to leave out of the rows read (CompiledQuery.excludeIds). */
  drop: Set<bigint> | null;
}

function prepare(db: Db, request: SearchRequest): Prepared {
  const type = request.type ?? 'Latest';
  if (type !== 'Latest' && type !== 'Top') throw fail.invalid('type', "expected 'Latest' or 'Top'");
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_PAGE_SIZE) {
    throw fail.invalid('limit', `expected a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const keyset = request.cursor ? decodeKeyset(request.cursor, type) : null;
  const q = compileQuery(db, request.query, request);
  if (q.excludeIds.length === 0) return { type, keyset, q, n: request.limit + 1, drop: null };
  // A page drops the protected accounts' few posts after reading (keptRows), not in SQL.
  let kept = withoutExclusion.get(q);
  if (!kept) {
    const strip = (arm: CompiledQuery): CompiledQuery => ({ ...arm, excludeIds: [] });
    kept = { q: { ...strip(q), union: q.union ? q.union.map(strip) : null }, drop: new Set(q.excludeIds) };
    withoutExclusion.set(q, kept);
  }
  return { type, keyset, n: request.limit + 1, ...kept };
}

/** The compiled query without its SQL exclusion, and the ids a page drops instead (one per compiled query, for buildSql's memo). */
const withoutExclusion = new WeakMap<CompiledQuery, { q: CompiledQuery; drop: Set<bigint> }>();

// A page's SQL text per compiled query, type and kind of keyset, built once with stand-ins for
// the keyset's values and the row count: a compiled query lives as long as the corpus is
// unchanged (compile.ts), and the same text object keeps the statement cache's lookup cheap. A
// first page of `#tag` at 1M posts spends 5 µs in SQLite inside its read transaction, and
// building the text again cost about 3 µs of it.
const ID = Symbol('keyset id');
const SCORE = Symbol('keyset score');
const ROWS = Symbol('rows');
const builtSql = new WeakMap<CompiledQuery, Map<string, { sql: string; params: unknown[] }>>();

function buildSql(db: Db, c: Prepared): { sql: string; params: unknown[] } {
  let byShape = builtSql.get(c.q);
  if (!byShape) builtSql.set(c.q, (byShape = new Map()));
  // topTuning is part of the shape: tests change it to force each Top plan on an unchanged corpus.
  const shape = `${c.type}:${c.keyset?.type ?? ''}:${topTuning.sortMax}`;
  let built = byShape.get(shape);
  if (!built) {
    const keyset: Keyset | null = c.keyset && (c.keyset.type === 'Top' ? { type: 'Top', score: SCORE as never, id: ID as never } : { type: 'Latest', id: ID as never });
    built = buildSqlOf(db, { ...c, keyset, n: ROWS as never });
    byShape.set(shape, built);
  }
  const { keyset, n } = c;
  const params = built.params.map((p) => (p === ID ? keyset!.id : p === SCORE ? (keyset as Keyset & { type: 'Top' }).score : p === ROWS ? n : p));
  return { sql: built.sql, params };
}

function buildSqlOf(db: Db, { type, keyset, q, n }: Prepared): { sql: string; params: unknown[] } {
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
  return inSnapshot(db, () => countOfMatches(db, request, cap));
}

function countOfMatches(db: Db, request: Omit<SearchRequest, 'cursor' | 'limit' | 'type'>, cap: number): number {
  const q = compileQuery(db, request.query, request);
  const parts = (q.union ?? [q]).map((arm) => {
    const { where, params } = baseWhere(arm);
    return { sql: `SELECT ${arm.idColumn} AS id FROM ${arm.from} WHERE ${where.join(' AND ')}`, params };
  });
  const sql = `SELECT count(*) FROM (${parts.map((p) => p.sql).join(' UNION ')} LIMIT ?)`;
  return countOf(db, sql, [...parts.flatMap((p) => p.params), cap]);
}
