import { expect } from 'vitest';
import type { Db } from '../../src/main/engine/store/db';

/**
 * A job's row charges are consecutive ranges from row 0 (`job:<id>:rows:<first row>`), with no
 * overlap and no gap, summing to `rows`: every row written was charged exactly once.
 */
export function expectEachRowChargedOnce(db: Db, jobId: number, rows: number): void {
  const charges = db
    .prepare(`SELECT id, amount FROM ledger_transfers WHERE id LIKE ? AND kind = 'post_pending' ORDER BY seq`)
    .all(`job:${jobId}:rows:%`) as { id: string; amount: number }[];
  let next = 0;
  for (const c of charges) {
    expect(c.id).toBe(`job:${jobId}:rows:${next}`);
    next += c.amount;
  }
  expect(next).toBe(rows);
}
