import type { Db } from '../store/db';
import type { CompiledQuery } from './compile';
import type { Keyset } from './cursor';
import { baseWhere, countOf, statement, type Row } from './statements';

// Type=Top: pages in engagement-score order, which no driver yields. Three ways to a page:
// - sorted: a driver with few matches (<= sortMax): read them all, sort, keep a page;
// - walked: posts_top_score best-first, checking the query per post; stops after a page, cheap
//   when matches are common among high scores; bounded to walkRows index entries per range;
// - scanned: when the walk ran out before filling the page (rare matches, unrelated to the score),
//   the driver's sort, or for no driver one pass over posts with a top-N sort.
// After a cursor (score s, id i) a page is two ranges in turn: the rest of the tie group
// (score = s, id < i) then lower scores (score < s), each an index range that stops early.

/** Top's engagement score; the same expression as the posts_top_score index (migration 040). */
export const TOP_SCORE_SQL = '(p.favorite_count + 2 * p.retweet_count + 3 * p.quote_count + p.reply_count)';

/**
 * sortMax: a driver with more matches is walked instead of sorted (sorting costs about the
 * matches, walking about limit * posts / matches probes; 5,000 is where they meet on a million
 * posts). walkRows: index entries a walk may read per range before scanning instead (20,000
 * entries cost about as much as a tenth of a full pass over a million posts). Exported for tests,
 * which shrink both to drive every path on a small corpus.
 */
export const topTuning = { sortMax: 5_000, walkRows: 20_000 };

const score = (alias: string) => TOP_SCORE_SQL.replaceAll('p.', `${alias}.`);
const order = (alias: string) => `${score(alias)} DESC, ${alias}.id DESC`;

interface Range {
  sql: (alias: string) => string;
  params: unknown[];
  /**
   * The range's order. Inside one tie group the score is constant, so the group orders by id
   * alone: with the score in the ORDER BY, SQLite does not see that the index already gives the
   * order and sorts the whole rest of the group (a TEMP B-TREE of up to 216,000 entries per page
   * for the posts scoring 0 at 1M posts: Top paging of lang:en at 0.36 of a streaming SELECT).
   */
  order: (alias: string) => string;
}

const ALL: Range = { sql: () => '1', params: [], order };

/** The ranges of a page: everything, or after (score, id) the rest of the tie group, then lower scores. */
function rangesAfter(keyset: (Keyset & { type: 'Top' }) | null): Range[] {
  return keyset
    ? [
        { sql: (a) => `${score(a)} = ? AND ${a}.id < ?`, params: [keyset.score, keyset.id], order: (a) => `${a}.id DESC` },
        { sql: (a) => `${score(a)} < ?`, params: [keyset.score], order },
      ]
    : [ALL];
}

/** Rows of one Top page (n = limit + 1), for a query without UNION arms. */
export function topRows(db: Db, q: CompiledQuery, keyset: (Keyset & { type: 'Top' }) | null, n: number): Row[] {
  const sortable = q.driver !== 'posts' && driverMatches(db, q) <= topTuning.sortMax;
  const ranges = rangesAfter(keyset);
  const rows: Row[] = [];
  for (const range of ranges) {
    const want = n - rows.length;
    rows.push(...(sortable ? sorted(db, q, range, want) : walked(db, q, range, want)));
    if (rows.length >= n) break;
  }
  return rows;
}

/** The plan for SQL text (UNION arms, EXPLAIN): sort the driver's matches, or walk the score index. */
export function topPlan(db: Db, q: CompiledQuery): CompiledQuery {
  if (q.driver !== 'posts' && driverMatches(db, q) <= topTuning.sortMax) return q;
  return { ...q, driver: 'posts', from: 'posts AS p INDEXED BY posts_top_score', bareFrom: null, idColumn: 'p.id', driverWhere: q.driverPredicate };
}

/** The driver's matches, counted up to sortMax + 1 (so the estimate costs at most that many steps). */
function driverMatches(db: Db, q: CompiledQuery): number {
  // A listed source counts its ids as it reads them: through `p.id IN (...)` SQLite would build
  // the whole list first (40,000 entries of filter:self_threads at 1M posts: 16 ms).
  if (q.driverList) return countOf(db, `SELECT count(*) FROM (${q.driverList.sql} LIMIT ?)`, [...q.driverList.params, topTuning.sortMax + 1]);
  const sql = `SELECT count(*) FROM (SELECT 1 FROM ${q.bareFrom ?? q.from} WHERE ${q.driverWhere.sql} LIMIT ?)`;
  return countOf(db, sql, [...q.driverWhere.params, topTuning.sortMax + 1]);
}

/** A range's rows sorted from the driver's matches; the last parameter (the row count) is left to the caller. */
function sortedSql(q: CompiledQuery, range: Range): { sql: string; params: unknown[] } {
  const { where, params } = baseWhere(q);
  const sql = `SELECT p.id, ${score('p')} FROM ${q.from} WHERE ${where.join(' AND ')} AND ${range.sql('p')} ORDER BY ${range.order('p')} LIMIT ?`;
  return { sql, params: [...params, ...range.params] };
}

/** A range's rows walked from posts_top_score; the last parameter (the row count) is left to the caller. */
function walkedSql(q: CompiledQuery, range: Range): { sql: string; params: unknown[]; where: string[]; whereParams: unknown[] } {
  // The query as per-post predicates over p: the driver's condition, the rest, the id bounds.
  const walk: CompiledQuery = { ...q, from: 'posts AS p', idColumn: 'p.id', driverWhere: q.driverPredicate };
  const { where, params } = baseWhere(walk);
  const window =
    `SELECT w.id AS wid FROM posts AS w INDEXED BY posts_top_score WHERE ${range.sql('w')} ORDER BY ${range.order('w')} LIMIT ?`;
  // No outer ORDER BY: it would make SQLite read the whole window before the first row. CROSS
  // JOIN keeps the window (a co-routine, in index order) as the outer loop, so rows come out in
  // score order and LIMIT stops the walk as soon as the page is full. The order is checked below.
  // A listed driver (search/sources.ts) is checked on the window's ids, before a posts row is
  // read: the walk of a rare filter then reads only the posts in its list, not all 20,000.
  const listed = q.driverList;
  const sql =
    `SELECT p.id, ${score('p')} FROM (${window}) CROSS JOIN posts AS p ON p.id = wid WHERE ` +
    `${listed ? `wid IN (${listed.sql}) AND ` : ''}${where.join(' AND ')} LIMIT ?`;
  return { sql, params: [...range.params, topTuning.walkRows, ...(listed ? listed.params : []), ...params], where, whereParams: params };
}

/** The statements of a page's ranges, sorted and walked, each with its row count: for EXPLAIN QUERY PLAN in tests. */
export function topRangeSql(q: CompiledQuery, keyset: (Keyset & { type: 'Top' }) | null, n: number): { sql: string; params: unknown[] }[] {
  return rangesAfter(keyset).flatMap((range) => [sortedSql(q, range), walkedSql(q, range)].map(({ sql, params }) => ({ sql, params: [...params, n] })));
}

function sorted(db: Db, q: CompiledQuery, range: Range, want: number): Row[] {
  const { sql, params } = sortedSql(q, range);
  return statement(db, sql).raw(true).all(...params, want) as Row[];
}

function walked(db: Db, q: CompiledQuery, range: Range, want: number): Row[] {
  const { sql, params: walkParams, where, whereParams: params } = walkedSql(q, range);
  const rows = statement(db, sql).raw(true).all(...walkParams, want) as Row[];
  if (!inTopOrder(rows)) return fallback(db, q, range, want, where, params);
  if (rows.length >= want) return rows;
  const windowSize = countOf(db, `SELECT count(*) FROM (SELECT 1 FROM posts AS w INDEXED BY posts_top_score WHERE ${range.sql('w')} LIMIT ?)`, [
    ...range.params,
    topTuning.walkRows,
  ]);
  if (windowSize < topTuning.walkRows) return rows; // the walk saw the whole range: this is all
  return fallback(db, q, range, want, where, params);
}

/** The walk ran out (rare matches): the driver's sort, or one pass over posts with a top-N sort. */
function fallback(db: Db, q: CompiledQuery, range: Range, want: number, where: string[], params: unknown[]): Row[] {
  if (q.driver !== 'posts') return sorted(db, q, range, want);
  const scan = `SELECT p.id, ${score('p')} FROM posts AS p NOT INDEXED WHERE ${where.join(' AND ')} AND ${range.sql('p')} ORDER BY ${range.order('p')} LIMIT ?`;
  return statement(db, scan).raw(true).all(...params, ...range.params, want) as Row[];
}

function inTopOrder(rows: Row[]): boolean {
  for (let i = 1; i < rows.length; i++) {
    const [id, s] = rows[i]!;
    const [prevId, prevScore] = rows[i - 1]!;
    if (s! > prevScore! || (s === prevScore && id >= prevId)) return false;
  }
  return true;
}
