import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import type { CompiledQuery } from './compile';

// Prepared statements per database, keyed by SQL text; queries differ in shape far less than in
// values, and the cache is bounded so a stream of odd queries cannot grow it without limit.
const MAX_CACHED_STATEMENTS = 200;
const cache = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

export function statement(db: Db, sql: string): Statement<unknown[]> {
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

const transactions = new WeakMap<Db, { begin: Statement<unknown[]>; commit: Statement<unknown[]>; rollback: Statement<unknown[]> }>();

/**
 * Runs `read` in one read transaction, unless the caller already has one open. Every statement of
 * a page (the protected posts, screen names, a time window, the page itself, the posts it prints)
 * then sees one snapshot, and only the first takes the WAL read lock: outside a transaction each
 * statement starts its own, about 6 µs apiece on the 2-core bench machine, while a first page of
 * `#tag` is 5 µs of SQL inside one (docs/decisions.md "Search: one read transaction per page").
 */
export function inSnapshot<T>(db: Db, read: () => T): T {
  if (db.inTransaction) return read();
  let tx = transactions.get(db);
  if (!tx) {
    tx = { begin: db.prepare('BEGIN'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
    transactions.set(db, tx);
  }
  tx.begin.run();
  try {
    const value = read();
    tx.commit.run();
    return value;
  } catch (err) {
    if (db.inTransaction) tx.rollback.run();
    throw err;
  }
}

/** A whole number from a one-row, one-column statement. */
export function countOf(db: Db, sql: string, params: unknown[]): number {
  return Number(statement(db, sql).pluck().safeIntegers(false).get(...params));
}

/** The driver's condition, the remaining predicates and the id bounds, over the driver's columns. */
export function baseWhere(q: CompiledQuery): { where: string[]; params: unknown[] } {
  const where = [q.driverWhere.sql, q.where.sql].filter((w) => w !== '1');
  const params = [...q.driverWhere.params, ...q.where.params];
  if (q.lowId !== null) {
    where.push(`${q.idColumn} > ?`);
    params.push(q.lowId);
  }
  if (q.highId !== null) {
    where.push(`${q.idColumn} <= ?`);
    params.push(q.highId);
  }
  if (q.excludeIds.length > 0) {
    where.push(`${q.idColumn} NOT IN (${q.excludeIds.map(() => '?').join(', ')})`);
    params.push(...q.excludeIds);
  }
  if (where.length === 0) where.push('1');
  return { where, params };
}

/** [id] or [id, score]: page statements run in raw mode (arrays, not objects: half the cost per row). */
export type Row = [id: bigint, score?: bigint];
