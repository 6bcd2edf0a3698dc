import type { Db } from '../store/db';
import { grant } from './grant';
import type { TransferResult } from './types';
import { checkAmount } from './validate';

export interface OpeningInput {
  userId: number;
  amount: number;
  nowMs: number;
}

/**
 * A new user's opening balance: one grant with the id `grant:opening:<userId>`, so it is made at
 * most once per user. An opening of 0 makes no transfer at all (a grant is at least 1 credit),
 * and the user's account stays at zero until a grant.
 */
export function openingGrant(db: Db, input: OpeningInput): TransferResult | null {
  const amount = checkAmount(input.amount);
  if (amount === 0) return null;
  return grant(db, { transferId: `grant:opening:${input.userId}`, userId: input.userId, amount, nowMs: input.nowMs, memo: 'opening balance' });
}
