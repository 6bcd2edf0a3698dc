import { fail } from '../errors';
import { prep } from './prep';
import type { Db } from '../store/db';
import { availableOf, userAccount } from './accounts';
import { notEnoughCredits } from './messages';
import { append, existing } from './append';
import { takeBackFloat } from './float-keeper';
import { inWriteTx } from './tx';
import { type Hold, type TransferResult, USAGE_ACCOUNT_ID } from './types';
import { checkAmount, checkTransferId, checkWholeId } from './validate';

export interface HoldRow {
  transfer_id: string;
  account_id: number;
  job_id: number | null;
  float_owner: string | null;
  amount: number;
  posted: number;
  voided: number;
  closed_at_ms: number | null;
  user_id: number;
}

export function toHold(r: HoldRow): Hold {
  const remaining = r.amount - r.posted - r.voided;
  return {
    holdId: r.transfer_id,
    userId: r.user_id,
    jobId: r.job_id,
    floatOwner: r.float_owner,
    amount: r.amount,
    posted: r.posted,
    voided: r.voided,
    remaining,
    open: r.closed_at_ms === null,
  };
}

export const HOLD_SELECT = `SELECT h.*, a.user_id FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id`;

export function getHold(db: Db, holdId: string): Hold {
  const row = prep(db, `${HOLD_SELECT} WHERE h.transfer_id = ?`).get(holdId) as HoldRow | undefined;
  if (!row) throw fail.notFound(`No hold with id '${holdId}'.`);
  return toHold(row);
}

/**
 * Open holds of jobs, of one user or of all. A metering float (float.ts) is not listed: it is the
 * API process's own reserve for the user's requests, counted as available where this process
 * shows a balance.
 */
export function openHolds(db: Db, userId?: number): Hold[] {
  const rows = (
    userId === undefined
      ? prep(db, `${HOLD_SELECT} WHERE h.closed_at_ms IS NULL AND h.job_id IS NOT NULL ORDER BY h.rowid`).all()
      : prep(db, `${HOLD_SELECT} WHERE h.closed_at_ms IS NULL AND h.job_id IS NOT NULL AND a.user_id = ? ORDER BY h.rowid`).all(userId)
  ) as HoldRow[];
  return rows.map(toHold);
}

/** Holds of one job, open or closed (a resumed job finds its hold here). */
export function holdsOfJob(db: Db, jobId: number): Hold[] {
  return (prep(db, `${HOLD_SELECT} WHERE h.job_id = ? ORDER BY h.rowid`).all(jobId) as HoldRow[]).map(toHold);
}

export interface HoldInput {
  /** The hold's id, e.g. `job:<id>:hold`; the same id again returns the same hold. */
  transferId: string;
  userId: number;
  jobId: number;
  amount: number;
  nowMs: number;
  memo?: string;
}

/**
 * Reserves a job's largest cost (a pending transfer). Throws payment_required when the available
 * balance cannot cover it, so the job is refused before any work. A hold of 0 is allowed (a reply
 * job on a post with no replies) and is closed at once.
 */
export function holdForJob(db: Db, input: HoldInput): Hold {
  const id = checkTransferId(input.transferId);
  const amount = checkAmount(input.amount);
  const userId = checkWholeId(input.userId, 'userId');
  const jobId = checkWholeId(input.jobId, 'jobId');
  return inWriteTx(db, () => {
    const account = userAccount(db, userId);
    const shape = { id, kind: 'pending' as const, debitAccountId: account.id, creditAccountId: USAGE_ACCOUNT_ID, amount, jobId };
    if (existing(db, shape)) return getHold(db, id);
    let available = availableOf(account);
    // This process's float holds some of the user's credits for requests: the job takes them back.
    if (available < amount && takeBackFloat(db, userId, input.nowMs)) available = availableOf(userAccount(db, userId));
    if (available < amount) {
      throw fail.paymentRequired(notEnoughCredits('job', amount, available, true));
    }
    append(db, { ...shape, memo: input.memo ?? null, createdAtMs: input.nowMs });
    prep(db, 'INSERT INTO ledger_holds (transfer_id, account_id, job_id, amount, closed_at_ms) VALUES (?, ?, ?, ?, ?)').run(
      id, account.id, jobId, amount, amount === 0 ? input.nowMs : null,
    );
    return getHold(db, id);
  });
}

export interface PostInput {
  holdId: string;
  /** Deterministic per batch, e.g. `job:<id>:rows:<offset>`, so a resumed job never pays twice. */
  transferId: string;
  amount: number;
  nowMs: number;
  memo?: string;
}

/**
 * Posts part of a hold: the credits move from held to spent. Call it inside the transaction that
 * writes the rows it pays for. Posting more than the hold's remainder is refused with `conflict`
 * (the job must stop at what it held).
 */
export function postFromHold(db: Db, input: PostInput): TransferResult {
  const id = checkTransferId(input.transferId);
  const holdId = checkTransferId(input.holdId, 'holdId');
  const amount = checkAmount(input.amount);
  return inWriteTx(db, () => {
    const hold = getHold(db, holdId);
    const account = userAccount(db, hold.userId);
    const shape = { id, kind: 'post_pending' as const, debitAccountId: account.id, creditAccountId: USAGE_ACCOUNT_ID, amount, pendingId: holdId };
    const found = existing(db, shape);
    if (found) return { transfer: found, created: false };
    if (!hold.open || amount > hold.remaining) {
      throw fail.conflict(`Hold '${holdId}' has ${hold.open ? hold.remaining : 0} credits left; cannot post ${amount}.`);
    }
    const transfer = append(db, { ...shape, memo: input.memo ?? null, createdAtMs: input.nowMs });
    prep(db,
      `UPDATE ledger_holds SET posted = posted + ?, closed_at_ms = CASE WHEN posted + ? + voided = amount THEN ? ELSE NULL END
       WHERE transfer_id = ?`,
    ).run(amount, amount, input.nowMs, holdId);
    return { transfer, created: true };
  });
}

export interface VoidInput {
  holdId: string;
  /** e.g. `job:<id>:void`. */
  transferId: string;
  nowMs: number;
  memo?: string;
}

/**
 * Releases what is left of a hold (job finished, failed or was cancelled). Safe to call more than
 * once: the same transferId returns the original; a hold that is already closed returns
 * `{transfer: null}` and changes nothing, so every exit path of a job may call it.
 */
export function voidHold(db: Db, input: VoidInput): { transfer: TransferResult['transfer'] | null; created: boolean } {
  const id = checkTransferId(input.transferId);
  const holdId = checkTransferId(input.holdId, 'holdId');
  return inWriteTx(db, () => {
    const hold = getHold(db, holdId);
    const account = userAccount(db, hold.userId);
    const shape = { id, kind: 'void_pending' as const, debitAccountId: account.id, creditAccountId: USAGE_ACCOUNT_ID, pendingId: holdId };
    const found = existing(db, shape);
    if (found) return { transfer: found, created: false };
    if (!hold.open) return { transfer: null, created: false };
    const transfer = append(db, { ...shape, amount: hold.remaining, memo: input.memo ?? null, createdAtMs: input.nowMs });
    prep(db, 'UPDATE ledger_holds SET voided = voided + ?, closed_at_ms = ? WHERE transfer_id = ?').run(hold.remaining, input.nowMs, holdId);
    return { transfer, created: true };
  });
}
