import type { Db } from '../store/db';
import { userAccount } from './accounts';
import { append, existing } from './append';
import { inWriteTx } from './tx';
import { GRANTS_ACCOUNT_ID, type TransferResult } from './types';
import { checkAmount, checkTransferId, checkWholeId } from './validate';

export interface GrantInput {
  transferId: string;
  userId: number;
  amount: number;
  nowMs: number;
  memo?: string;
}

/** Adds credits to a user's account (from the grants account). */
export function grant(db: Db, input: GrantInput): TransferResult {
  const id = checkTransferId(input.transferId);
  const amount = checkAmount(input.amount, { min: 1 });
  const userId = checkWholeId(input.userId, 'userId');
  return inWriteTx(db, () => {
    const account = userAccount(db, userId);
    const shape = { id, kind: 'posted' as const, debitAccountId: GRANTS_ACCOUNT_ID, creditAccountId: account.id, amount };
    const found = existing(db, shape);
    if (found) return { transfer: found, created: false };
    return { transfer: append(db, { ...shape, memo: input.memo ?? null, createdAtMs: input.nowMs }), created: true };
  });
}
