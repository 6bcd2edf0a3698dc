import { fail } from '../errors';
import { prep } from './prep';
import type { Db } from '../store/db';
import type { Transfer, TransferKind } from './types';

export interface NewTransfer {
  id: string;
  kind: TransferKind;
  debitAccountId: number;
  creditAccountId: number;
  amount: number;
  pendingId?: string | null;
  jobId?: number | null;
  memo?: string | null;
  createdAtMs: number;
}

interface TransferRow {
  seq: number;
  id: string;
  kind: TransferKind;
  debit_account_id: number;
  credit_account_id: number;
  amount: number;
  pending_id: string | null;
  job_id: number | null;
  memo: string | null;
  created_at_ms: number;
}

export function toTransfer(r: TransferRow): Transfer {
  return {
    seq: r.seq,
    id: r.id,
    kind: r.kind,
    debitAccountId: r.debit_account_id,
    creditAccountId: r.credit_account_id,
    amount: r.amount,
    pendingId: r.pending_id,
    jobId: r.job_id,
    memo: r.memo,
    createdAtMs: r.created_at_ms,
  };
}

export function findTransfer(db: Db, id: string): Transfer | undefined {
  const row = prep(db, 'SELECT * FROM ledger_transfers WHERE id = ?').get(id) as TransferRow | undefined;
  return row ? toTransfer(row) : undefined;
}

/**
 * TigerBeetle's idempotency rule: a transfer id seen before with the same content returns the
 * original (the retry changes nothing); with other content it is refused with `conflict`.
 * `amount: undefined` leaves the amount out of the comparison (a void's amount is computed).
 * Memo and time are descriptive and not compared.
 */
export function existing(
  db: Db,
  t: { id: string; kind: TransferKind; debitAccountId: number; creditAccountId: number; amount?: number; pendingId?: string | null; jobId?: number | null },
): Transfer | undefined {
  const found = findTransfer(db, t.id);
  if (!found) return undefined;
  const diffs: string[] = [];
  if (found.kind !== t.kind) diffs.push(`kind ${found.kind} vs ${t.kind}`);
  if (found.debitAccountId !== t.debitAccountId) diffs.push(`debit account ${found.debitAccountId} vs ${t.debitAccountId}`);
  if (found.creditAccountId !== t.creditAccountId) diffs.push(`credit account ${found.creditAccountId} vs ${t.creditAccountId}`);
  if (t.amount !== undefined && found.amount !== t.amount) diffs.push(`amount ${found.amount} vs ${t.amount}`);
  if ((found.pendingId ?? null) !== (t.pendingId ?? null)) diffs.push(`hold ${found.pendingId} vs ${t.pendingId ?? null}`);
  if ((found.jobId ?? null) !== (t.jobId ?? null)) diffs.push(`job ${found.jobId} vs ${t.jobId ?? null}`);
  if (diffs.length) {
    throw fail.conflict(`Transfer id '${t.id}' was already used for a different transfer (${diffs.join(', ')}).`);
  }
  return found;
}

const BALANCE_DELTAS: Record<TransferKind, { dPending: number; dPosted: number; cPending: number; cPosted: number }> = {
  posted: { dPending: 0, dPosted: 1, cPending: 0, cPosted: 1 },
  pending: { dPending: 1, dPosted: 0, cPending: 1, cPosted: 0 },
  post_pending: { dPending: -1, dPosted: 1, cPending: -1, cPosted: 1 },
  void_pending: { dPending: -1, dPosted: 0, cPending: -1, cPosted: 0 },
};

/** Appends a transfer and moves the two accounts' balances by it. The caller checked the rules. */
export function append(db: Db, t: NewTransfer): Transfer {
  const d = BALANCE_DELTAS[t.kind];
  const row = prep(
    db,
      `INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id, job_id, memo, created_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(t.id, t.kind, t.debitAccountId, t.creditAccountId, t.amount, t.pendingId ?? null, t.jobId ?? null, t.memo ?? null, t.createdAtMs) as TransferRow;
  const move = prep(db,
    `UPDATE ledger_accounts SET debits_pending = debits_pending + ?, debits_posted = debits_posted + ?,
       credits_pending = credits_pending + ?, credits_posted = credits_posted + ? WHERE id = ?`,
  );
  move.run(d.dPending * t.amount, d.dPosted * t.amount, 0, 0, t.debitAccountId);
  move.run(0, 0, d.cPending * t.amount, d.cPosted * t.amount, t.creditAccountId);
  return toTransfer(row);
}
