import type { Db } from '../store/db';
import { prep } from './prep';

/**
 * Runs fn as one write transaction. Inside a caller's transaction it becomes a savepoint, so a
 * charge commits (or rolls back) together with the rows it pays for. On its own it starts with
 * BEGIN IMMEDIATE: a deferred transaction that reads and then writes fails with SQLITE_BUSY when
 * another connection (a job worker, the CLI) wrote in between, and busy_timeout cannot retry that.
 * Written with cached statements rather than db.transaction(fn), which builds a new wrapper per
 * call (~80 µs, a tenth of a metered request).
 */
export function inWriteTx<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) {
    prep(db, 'SAVEPOINT ledger').run();
    try {
      const result = fn();
      prep(db, 'RELEASE ledger').run();
      // Counted now: the caller's transaction commits or rolls back later, and a count too many
      // only makes a reader look again.
      written(db);
      return result;
    } catch (err) {
      // SQLite rolls the whole transaction back itself on some errors (SQLITE_FULL: a full disk):
      // then there is no savepoint left, and ROLLBACK TO would hide the error behind "no such savepoint".
      if (db.inTransaction) {
        prep(db, 'ROLLBACK TO ledger').run();
        prep(db, 'RELEASE ledger').run();
      }
      throw err;
    }
  }
  prep(db, 'BEGIN IMMEDIATE').run();
  try {
    const result = fn();
    prep(db, 'COMMIT').run();
    written(db);
    return result;
  } catch (err) {
    if (db.inTransaction) prep(db, 'ROLLBACK').run();
    throw err;
  }
}

const writes = new WeakMap<Db, number>();
const written = (db: Db) => writes.set(db, (writes.get(db) ?? 0) + 1);

/**
 * How many ledger writes this process made on `db` so far (committed, or released into a
 * caller's transaction). A balance read earlier is still current when this has not moved, as far
 * as this process goes: another process's spend is caught by the ledger itself when the charge
 * is written.
 */
export function ledgerWrites(db: Db): number {
  return writes.get(db) ?? 0;
}
