import type { Db } from '../store/db';
import { prep } from './prep';
import { availableOf, userAccount } from './accounts';
import { toTransfer } from './append';
import { floatKeeperOf } from './float-keeper';
import type { Transfer } from './types';

export interface LedgerLine extends Transfer {
  /**
   * 'in': the user's account is credited (a grant); 'out': it is debited (a charge, a hold, its post
   * or void); 'upstream': items the upstream billed for this user's request (migration 059), which
   * moves the upstream account, not the user's.
   */
  direction: 'in' | 'out' | 'upstream';
}

const directionOf = (t: Transfer, accountId: number): LedgerLine['direction'] =>
  t.creditAccountId === accountId ? 'in' : t.debitAccountId === accountId ? 'out' : 'upstream';

/** A user's transfers, oldest first, at most `limit` (default 1000) after `afterSeq`. */
export function transfersOf(db: Db, userId: number, { afterSeq = 0, limit = 1000 } = {}): LedgerLine[] {
  const account = userAccount(db, userId);
  // Three index range scans ((account, seq) on each side, (cause user, seq)) merged in seq order: a
  // page costs its own size, not the account's whole history (an OR would collect and sort every
  // match per page).
  const rows = prep(
    db,
    `SELECT * FROM ledger_transfers WHERE debit_account_id = ? AND seq > ?
     UNION ALL
     SELECT * FROM ledger_transfers WHERE credit_account_id = ? AND seq > ?
     UNION ALL
     SELECT * FROM ledger_transfers WHERE cause_user_id = ? AND seq > ?
     ORDER BY seq LIMIT ?`,
  ).all(account.id, afterSeq, account.id, afterSeq, userId, afterSeq, Math.min(Math.max(limit, 1), 100_000)) as Parameters<typeof toTransfer>[0][];
  return rows.map((r) => {
    const t = toTransfer(r);
    return { ...t, direction: directionOf(t, account.id) };
  });
}

/**
 * What a transfer did to the user's available balance: + a grant or a released hold, - a charge
 * or a hold; posting part of a hold changes nothing (those credits were already unavailable), nor
 * does an upstream line (the upstream account paid it).
 */
export function availableChange(t: LedgerLine, ownFloat = false): number {
  if (t.direction === 'upstream') return 0;
  // A float of this process counts as available here (balance.ts): placing and releasing it change
  // nothing, and what is posted from it is spent then.
  if (ownFloat) return t.kind === 'post_pending' ? -t.amount : 0;
  if (t.direction === 'in') return t.amount;
  if (t.kind === 'posted' || t.kind === 'pending') return -t.amount;
  if (t.kind === 'void_pending') return t.amount;
  return 0;
}

export interface LedgerLineWithBalance extends LedgerLine {
  availableChange: number;
  /** The available balance right after this transfer. */
  availableAfter: number;
  /** A line of this process's metering float: its credits count as available here, so it holds nothing. */
  ownFloat: boolean;
}

/** This process's floats on the account (float-keeper.ts), and what their open ones still hold. */
function ownFloatsOf(db: Db, accountId: number): { ids: ReadonlySet<string>; openRemaining: number } {
  const keeper = floatKeeperOf(db);
  if (!keeper) return { ids: new Set(), openRemaining: 0 };
  const rows = prep(db, 'SELECT transfer_id AS id, amount - posted - voided AS remaining, closed_at_ms IS NULL AS open FROM ledger_holds WHERE float_owner = ? AND account_id = ?').all(
    keeper.owner,
    accountId,
  ) as { id: string; remaining: number; open: number }[];
  return { ids: new Set(rows.map((r) => r.id)), openRemaining: rows.reduce((sum, r) => sum + (r.open ? r.remaining : 0), 0) };
}

/**
 * A user's newest `limit` transfers, newest first, each with the available balance after it.
 * The running balance is counted back from the account's stored balance, which equals the sum of
 * its transfers (an invariant checked at every start), so a page never sums a long history; both
 * are read in one snapshot so a concurrent charge cannot shift one against the other. Where this
 * process has a metering float, its lines hold nothing (`ownFloat`), as the balance it shows counts
 * the float as available; the newest line's figure then still includes what was drawn on the float
 * in its journal and not yet posted (FloatKeeper.shareOf's `journaled`), which the caller shows.
 */
export function latestTransfersOf(db: Db, userId: number, limit: number): LedgerLineWithBalance[] {
  return db.transaction(() => {
    const account = userAccount(db, userId);
    const rows = prep(
      db,
      `SELECT * FROM ledger_transfers WHERE debit_account_id = ?
       UNION ALL
       SELECT * FROM ledger_transfers WHERE credit_account_id = ?
       UNION ALL
       SELECT * FROM ledger_transfers WHERE cause_user_id = ?
       ORDER BY seq DESC LIMIT ?`,
    ).all(account.id, account.id, userId, Math.min(Math.max(limit, 1), 100_000)) as Parameters<typeof toTransfer>[0][];
    const floats = ownFloatsOf(db, account.id);
    let after = availableOf(account) + floats.openRemaining;
    return rows.map((r) => {
      const t = toTransfer(r);
      const line: LedgerLine = { ...t, direction: directionOf(t, account.id) };
      // A hold's own line carries its id; its posts and its release name it.
      const ownFloat = floats.ids.has(t.kind === 'pending' ? t.id : (t.pendingId ?? ''));
      const change = availableChange(line, ownFloat);
      const out = { ...line, availableChange: change, availableAfter: after, ownFloat };
      after -= change;
      return out;
    });
  })();
}
