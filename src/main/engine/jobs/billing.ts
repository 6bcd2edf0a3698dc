import { holdForJob, postFromHold, voidHold } from '../ledger';
import type { Db } from '../store/db';

// The jobs' side of the credits rules (spec 7, src/main/engine/ledger/README.md): a job holds its
// largest cost when it is created, posts one credit per row from the hold in the same transaction
// as the batch's checkpoint (so a crash can never split a charge from the rows it pays for), and
// voids what is left when it ends, whether in success or error. Transfer ids are derived from the
// job and the rows they cover, so a replayed batch is an idempotent no-op in the ledger.
// Every function runs inside the caller's write transaction (the ledger makes it a savepoint).

const holdId = (jobId: number): string => `job:${jobId}:hold`;

export function holdJobCredits(db: Db, userId: number, jobId: number, amount: number, nowMs: number): void {
  holdForJob(db, { transferId: holdId(jobId), userId, jobId, amount, nowMs, memo: `job ${jobId}: hold for up to ${amount} rows` });
}

export function chargeJobRows(db: Db, jobId: number, fromRow: number, rows: number, nowMs: number): void {
  postFromHold(db, { holdId: holdId(jobId), transferId: `job:${jobId}:rows:${fromRow}`, amount: rows, nowMs, memo: `job ${jobId}: rows ${fromRow}..${fromRow + rows - 1}` });
}

export function releaseJobHold(db: Db, jobId: number, nowMs: number): void {
  voidHold(db, { holdId: holdId(jobId), transferId: `job:${jobId}:void`, nowMs, memo: `job ${jobId}: ended` });
}
