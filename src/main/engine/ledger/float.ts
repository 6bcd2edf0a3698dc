import { prep } from './prep';
import type { Db } from '../store/db';
import { availableOf, userAccount } from './accounts';
import { append, existing } from './append';
import { HOLD_SELECT, type HoldRow, toHold } from './holds';
import { inWriteTx } from './tx';
import { type Hold, USAGE_ACCOUNT_ID } from './types';
import { checkAmount, checkTransferId, checkWholeId } from './validate';

// A metering float: a hold that belongs to an API process rather than to a job. While another
// connection holds the database's write lock (`skein import`, a job's batch), the process answers a
// request once its charge is in its own journal file, drawn on this hold; the charges are posted
// from the hold when the lock is free (metering/floats.ts). Because the credits are held in the
// ledger before any of them is drawn, every other debit (a job's hold, a charge by another process)
// already sees them as taken: the journal can never promise credits the ledger gives elsewhere.

export interface FloatInput {
  transferId: string;
  userId: number;
  /** The API process that draws on it (metering: its journal file's name). */
  owner: string;
  /** At most the user's available balance. */
  amount: number;
  nowMs: number;
}

const FLOAT_MEMO = 'held by the API server for requests answered while another program writes to the database';

/** Opens a float of `amount` credits (> 0, <= available). Same transferId again: the same hold. */
export function openFloat(db: Db, input: FloatInput): Hold {
  const id = checkTransferId(input.transferId);
  const amount = checkAmount(input.amount);
  const userId = checkWholeId(input.userId, 'userId');
  return inWriteTx(db, () => {
    const account = userAccount(db, userId);
    const shape = { id, kind: 'pending' as const, debitAccountId: account.id, creditAccountId: USAGE_ACCOUNT_ID, amount, jobId: null };
    if (!existing(db, shape)) {
      // The caller sized it from the balance it read in this transaction; a float is never a 402.
      if (amount < 1 || amount > availableOf(account)) throw new Error(`ledger: a float of ${amount} for user ${userId} (available ${availableOf(account)})`);
      append(db, { ...shape, memo: FLOAT_MEMO, createdAtMs: input.nowMs });
      prep(db, 'INSERT INTO ledger_holds (transfer_id, account_id, float_owner, amount) VALUES (?, ?, ?, ?)').run(id, account.id, input.owner, amount);
    }
    return toHold(prep(db, `${HOLD_SELECT} WHERE h.transfer_id = ?`).get(id) as HoldRow);
  });
}

/** The open floats of one owner (of one user, when given). */
export function openFloatsOf(db: Db, owner: string, userId?: number): Hold[] {
  const rows =
    userId === undefined
      ? prep(db, `${HOLD_SELECT} WHERE h.float_owner = ? AND h.closed_at_ms IS NULL ORDER BY h.rowid`).all(owner)
      : prep(db, `${HOLD_SELECT} WHERE h.float_owner = ? AND h.closed_at_ms IS NULL AND a.user_id = ? ORDER BY h.rowid`).all(owner, userId);
  return (rows as HoldRow[]).map(toHold);
}

/** Every owner with an open float (the start's recovery looks for the dead ones among them). */
export function floatOwners(db: Db): string[] {
  return prep(db, 'SELECT DISTINCT float_owner FROM ledger_holds WHERE float_owner IS NOT NULL AND closed_at_ms IS NULL').pluck().all() as string[];
}

/**
 * What API processes' floats hold of a user's credits now (any owner), for a balance shown by
 * another process (`skein credits`), which cannot see a server's journal: part of it may already
 * be drawn for requests answered while another program wrote.
 */
export function heldByFloats(db: Db, userId: number): number {
  return prep(db, `SELECT total(h.amount - h.posted - h.voided) FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
    WHERE h.float_owner IS NOT NULL AND h.closed_at_ms IS NULL AND a.user_id = ?`).pluck().get(userId) as number;
}
