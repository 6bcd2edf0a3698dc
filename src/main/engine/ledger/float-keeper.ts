import type { Db } from '../store/db';

/**
 * This process's view of its floats on `db` (metering/floats.ts registers one per connection). The
 * ledger asks it so that a balance shown by this process counts a float's undrawn credits as
 * available, and a job's hold may take them back.
 */
export interface FloatKeeper {
  /** The process's name on its floats (ledger_holds.float_owner). */
  readonly owner: string;
  /** The user's floats in this process: credits still undrawn, and credits drawn in the journal but not yet posted. */
  shareOf(userId: number): { free: number; journaled: number };
  /** Inside the caller's write transaction: posts the user's journaled charges and voids the user's floats. */
  release(userId: number, nowMs: number): void;
}

const keepers = new WeakMap<Db, FloatKeeper>();

export function keepFloats(db: Db, keeper: FloatKeeper | null): void {
  if (keeper) keepers.set(db, keeper);
  else keepers.delete(db);
}

export function floatKeeperOf(db: Db): FloatKeeper | undefined {
  return keepers.get(db);
}

/**
 * Inside a write transaction that finds the user short: this process's float gives its undrawn
 * credits back (its journal posted, the float voided). True when it did, so the caller reads the
 * balance again.
 */
export function takeBackFloat(db: Db, userId: number, nowMs: number): boolean {
  const keeper = keepers.get(db);
  if (!keeper || keeper.shareOf(userId).free <= 0) return false;
  keeper.release(userId, nowMs);
  return true;
}
