import { availableFor, getHold, holdForJob, holdsOfJob, postFromHold, voidHold } from '../ledger';
import type { Db } from '../store/db';

// The jobs' side of the credits rules (spec 7, src/main/engine/ledger/README.md): a job holds its
// largest cost when it is created, posts one credit per row from the hold in the same transaction
// as the batch's checkpoint (so a crash can never split a charge from the rows it pays for), and
// voids what is left when it ends, whether in success or error. Transfer ids are derived from the
// job and the rows they cover, so a replayed batch is an idempotent no-op in the ledger.
// Every function runs inside the caller's write transaction (the ledger makes it a savepoint).

const holdId = (jobId: number): string => `job:${jobId}:hold`;
// A pending transfer's amount never changes (TigerBeetle's rule, ledger/README.md), so a job that
// learns it needs more takes a second hold, once: rows past the first hold's amount post from it.
const topUpId = (jobId: number): string => `job:${jobId}:hold:top-up`;

export function holdJobCredits(db: Db, userId: number, jobId: number, amount: number, nowMs: number): void {
  holdForJob(db, { transferId: holdId(jobId), userId, jobId, amount, nowMs, memo: `job ${jobId}: hold for up to ${amount} rows` });
}

/**
 * Raises a job's hold by up to `extra` credits, as far as the user's available balance goes.
 * Returns what was added (0 when nothing was available). Once per job: a second call returns 0.
 */
export function topUpJobHold(db: Db, userId: number, jobId: number, extra: number, nowMs: number): number {
  if (extra <= 0 || holdsOfJob(db, jobId).some((h) => h.holdId === topUpId(jobId))) return 0;
  const amount = Math.min(extra, availableFor(db, userId));
  if (amount <= 0) return 0;
  holdForJob(db, { transferId: topUpId(jobId), userId, jobId, amount, nowMs, memo: `job ${jobId}: ${amount} more rows than it first held` });
  return amount;
}

/**
 * Rows [fromRow, fromRow + rows) pay from the first hold up to its amount, the rest from the
 * top-up. The split depends only on the row numbers, so a replayed batch finds its transfers.
 */
export function chargeJobRows(db: Db, jobId: number, fromRow: number, rows: number, nowMs: number): void {
  const first = getHold(db, holdId(jobId)).amount;
  const fromFirst = Math.max(0, Math.min(rows, first - fromRow));
  const memo = (from: number, n: number) => `job ${jobId}: rows ${from}..${from + n - 1}`;
  if (fromFirst > 0) postFromHold(db, { holdId: holdId(jobId), transferId: `job:${jobId}:rows:${fromRow}`, amount: fromFirst, nowMs, memo: memo(fromRow, fromFirst) });
  const rest = rows - fromFirst;
  const from = fromRow + fromFirst;
  if (rest > 0) postFromHold(db, { holdId: topUpId(jobId), transferId: `job:${jobId}:rows:${from}:top-up`, amount: rest, nowMs, memo: memo(from, rest) });
}

export function releaseJobHold(db: Db, jobId: number, nowMs: number): void {
  voidHold(db, { holdId: holdId(jobId), transferId: `job:${jobId}:void`, nowMs, memo: `job ${jobId}: ended` });
  if (holdsOfJob(db, jobId).some((h) => h.holdId === topUpId(jobId))) {
    voidHold(db, { holdId: topUpId(jobId), transferId: `job:${jobId}:top-up:void`, nowMs, memo: `job ${jobId}: ended` });
  }
}
