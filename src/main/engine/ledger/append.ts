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
  /** The local user an upstream transfer paid for (migration 059); null on every other transfer. */
  causeUserId?: number | null;
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
  cause_user_id: number | null;
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
    causeUserId: r.cause_user_id,
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

// One INSERT and one UPDATE moving both accounts: the previous form (INSERT ... RETURNING * and an
// UPDATE per account) ran 3 statements and built the row back from SQLite; this runs 2 and builds
// the Transfer from what was written (a metered request appends one transfer; bench/metering).
const INSERT = `INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id, job_id, memo, created_at_ms, cause_user_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const MOVE = `UPDATE ledger_accounts SET
  debits_pending = debits_pending + (CASE WHEN id = ? THEN ? ELSE 0 END),
  debits_posted = debits_posted + (CASE WHEN id = ? THEN ? ELSE 0 END),
  credits_pending = credits_pending + (CASE WHEN id = ? THEN ? ELSE 0 END),
  credits_posted = credits_posted + (CASE WHEN id = ? THEN ? ELSE 0 END)
  WHERE id IN (?, ?)`;

/** Appends a transfer and moves the two accounts' balances by it. The caller checked the rules. */
export function append(db: Db, t: NewTransfer): Transfer {
  return write(db, t, prep(db, INSERT).run(...insertArgs(t)).lastInsertRowid);
}

/**
 * Inserts a transfer whose id is most likely new (a request's charge): the UNIQUE id decides in the
 * INSERT itself instead of a SELECT before it. Returns undefined, having changed nothing, when the
 * id exists; the caller then applies the idempotency rule with existing(). It does not move the
 * accounts: the caller (chargeBatch) moves them once for all its transfers with moveAccounts, in
 * the same transaction, or the balances no longer equal the transfers.
 */
export function insertIfNew(db: Db, t: NewTransfer): Transfer | undefined {
  const r = prep(db, `${INSERT} ON CONFLICT (id) DO NOTHING`).run(...insertArgs(t));
  return r.changes === 0 ? undefined : transferOf(t, r.lastInsertRowid);
}

function insertArgs(t: NewTransfer) {
  return [t.id, t.kind, t.debitAccountId, t.creditAccountId, t.amount, t.pendingId ?? null, t.jobId ?? null, t.memo ?? null, t.createdAtMs, t.causeUserId ?? null] as const;
}

function write(db: Db, t: NewTransfer, seq: number | bigint): Transfer {
  moveAccounts(db, t, `transfer '${t.id}'`);
  return transferOf(t, seq);
}

/** Moves the two accounts' balances by `t.amount` of kind `t.kind` (one transfer, or a batch's sum). */
export function moveAccounts(db: Db, t: Pick<NewTransfer, 'kind' | 'debitAccountId' | 'creditAccountId' | 'amount'>, what: string): void {
  const d = BALANCE_DELTAS[t.kind];
  const a = t.amount;
  const r = prep(db, MOVE).run(
    t.debitAccountId, d.dPending * a, t.debitAccountId, d.dPosted * a,
    t.creditAccountId, d.cPending * a, t.creditAccountId, d.cPosted * a,
    t.debitAccountId, t.creditAccountId,
  );
  if (r.changes !== 2) throw new Error(`ledger: ${what} moved ${r.changes} accounts, not 2`);
}

function transferOf(t: NewTransfer, seq: number | bigint): Transfer {
  return {
    seq: Number(seq),
    id: t.id,
    kind: t.kind,
    debitAccountId: t.debitAccountId,
    creditAccountId: t.creditAccountId,
    amount: t.amount,
    pendingId: t.pendingId ?? null,
    jobId: t.jobId ?? null,
    memo: t.memo ?? null,
    createdAtMs: t.createdAtMs,
    causeUserId: t.causeUserId ?? null,
  };
}
