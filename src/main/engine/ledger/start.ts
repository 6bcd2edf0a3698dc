import type { Db } from '../store/db';
import { voidHold } from './holds';
import { writeCheckpoint } from './checkpoint';
import { checkSinceCheckpoint, LedgerInvariantError, orphanHolds } from './invariants';
import { inWriteTx } from './tx';

export interface ReleasedHold {
  holdId: string;
  jobId: number;
  amount: number;
  jobStatus: string | null;
}

/**
 * The ledger's part of every engine start. A hold left open by a job that is no longer running
 * (a crash between the job's end and its void, or a bug) would keep the user's credits locked for
 * good: it is released here, as a void transfer `release:<hold id>` whose memo says why, so the
 * ledger shows it. Anything else wrong (unbalanced books, balances that disagree with their
 * transfers) stops the start with the precise violations: serving wrong balances is worse.
 *
 * The check runs from the ledger checkpoint on (checkSinceCheckpoint: milliseconds, however many
 * transfers came before it), and a clean start moves the checkpoint to the newest transfer, so the
 * next start re-derives only what came after this one. The full re-derivation is `skein doctor`.
 */
export function startLedger(db: Db, nowMs: number): ReleasedHold[] {
  const released: ReleasedHold[] = [];
  const orphans = orphanHolds(db);
  if (orphans.length) {
    inWriteTx(db, () => {
      for (const o of orphans) {
        const memo = `released at start: job ${o.jobId} is ${o.jobStatus ?? 'missing'}`;
        const r = voidHold(db, { holdId: o.holdId, transferId: `release:${o.holdId}`, nowMs, memo });
        if (r.transfer) released.push({ ...o, amount: r.transfer.amount });
      }
    });
  }
  const check = checkSinceCheckpoint(db);
  if (check.violations.length) throw new LedgerInvariantError(check.violations);
  if (check.seq > check.checkpointSeq) writeCheckpoint(db, { fromSeq: check.checkpointSeq, seq: check.seq, sums: check.sums, nowMs, by: 'start' });
  return released;
}
