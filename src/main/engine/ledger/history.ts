import type { Db } from '../store/db';
import { prep } from './prep';
import { userAccount } from './accounts';
import { toTransfer } from './append';
import type { Transfer } from './types';

export interface LedgerLine extends Transfer {
  /** 'in': the user's account is credited (a grant); 'out': it is debited (a charge, a hold, its post or void). */
  direction: 'in' | 'out';
}

/** A user's transfers, oldest first, at most `limit` (default 1000) after `afterSeq`. */
export function transfersOf(db: Db, userId: number, { afterSeq = 0, limit = 1000 } = {}): LedgerLine[] {
  const account = userAccount(db, userId);
  // Two index range scans ((account, seq) on each side) merged in seq order: a page costs its own
  // size, not the account's whole history (an OR would collect and sort every match per page).
  const rows = prep(
    db,
    `SELECT * FROM ledger_transfers WHERE debit_account_id = ? AND seq > ?
     UNION ALL
     SELECT * FROM ledger_transfers WHERE credit_account_id = ? AND seq > ?
     ORDER BY seq LIMIT ?`,
  ).all(account.id, afterSeq, account.id, afterSeq, Math.min(Math.max(limit, 1), 100_000)) as Parameters<typeof toTransfer>[0][];
  return rows.map((r) => {
    const t = toTransfer(r);
    return { ...t, direction: t.creditAccountId === account.id ? 'in' : 'out' };
  });
}
