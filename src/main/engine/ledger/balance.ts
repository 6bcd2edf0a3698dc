import { fail } from '../errors';
import type { Db } from '../store/db';
import { prep } from './prep';
import { availableOf, userAccount } from './accounts';
import type { Balance } from './types';

export function balanceOf(db: Db, userId: number): Balance {
  const a = userAccount(db, userId);
  return {
    userId,
    posted: a.credits_posted - a.debits_posted,
    pending: a.debits_pending,
    available: availableOf(a),
    creditsPosted: a.credits_posted,
    debitsPosted: a.debits_posted,
  };
}

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
