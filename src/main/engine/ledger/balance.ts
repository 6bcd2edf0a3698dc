import type { Db } from '../store/db';
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
