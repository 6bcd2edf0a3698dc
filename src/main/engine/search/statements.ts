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

/** A whole number from a one-row, one-column statement. */
export function countOf(db: Db, sql: string, params: unknown[]): number {
  return Number(statement(db, sql).pluck().safeIntegers(false).get(...params));
}

/** The driver's condition, the remaining predicates and the id bounds, over the driver's columns. */
export function baseWhere(q: CompiledQuery): { where: string[]; params: unknown[] } {
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

/** [id] or [id, score]: page statements run in raw mode (arrays, not objects: half the cost per row). */
export type Row = [id: bigint, score?: bigint];
