import { fail } from '../errors';
import type { Db } from '../store/db';
import { prep } from './prep';
import { availableOf, userAccount } from './accounts';
import type { Balance } from './types';
import { floatKeeperOf } from './float-keeper';

/**
 * The user's balance as this process sees it. A metering float of this process (float.ts) is the
 * process's own reserve, not a job's hold: its undrawn credits count as available, and what was
 * drawn on it in the journal counts as spent (posted), as it will be once the lock frees.
 */
export function balanceOf(db: Db, userId: number): Balance {
  const a = userAccount(db, userId);
  const { free, journaled } = floatKeeperOf(db)?.shareOf(userId) ?? NO_SHARE;
  return {
    userId,
    posted: a.credits_posted - a.debits_posted - journaled,
    pending: a.debits_pending - free - journaled,
    available: availableOf(a) + free,
    creditsPosted: a.credits_posted,
    debitsPosted: a.debits_posted + journaled,
  };
}

const NO_SHARE = { free: 0, journaled: 0 };

/**
 * balanceOf(db, userId).available alone: what a request's balance check needs, in one value
 * instead of a row (the check runs on every metered request).
 */
export function availableFor(db: Db, userId: number): number {
  const available = prep(db, `SELECT ${availableSql('ledger_accounts')} FROM ledger_accounts WHERE user_id = ?`).pluck().get(userId) as
    | number
    | undefined;
  if (available === undefined) throw fail.notFound(`No api user with id ${userId}.`);
  return available;
}

/** availableOf() as SQL over a ledger_accounts row named `account`, for queries that join it. */
export const availableSql = (account: string): string => `${account}.credits_posted - ${account}.debits_posted - ${account}.debits_pending`;
