import { fail } from '../errors';
import type { Db } from '../store/db';
import { availableOf, userAccount } from './accounts';
import { notEnoughCredits } from './messages';
import { appendIfNew, existing } from './append';
import { inWriteTx } from './tx';
import { USAGE_ACCOUNT_ID, type TransferResult } from './types';
import { checkAmount, checkTransferId, checkWholeId } from './validate';

export interface ChargeInput {
  transferId: string;
  userId: number;
  amount: number;
  nowMs: number;
  memo?: string;
}

/**
 * Spends credits at once (a request's price). Throws payment_required when the available balance
 * (holds subtracted) is below the amount: the balance never goes below zero.
 */
export function charge(db: Db, input: ChargeInput): TransferResult {
  const id = checkTransferId(input.transferId);
  const amount = checkAmount(input.amount);
  const userId = checkWholeId(input.userId, 'userId');
  return inWriteTx(db, () => {
    const account = userAccount(db, userId);
    const shape = { id, kind: 'posted' as const, debitAccountId: account.id, creditAccountId: USAGE_ACCOUNT_ID, amount };
    // The idempotency rule first (a retry returns the original, even when the balance is short
    // now; other content is a conflict), then the balance. A request's id is new almost always, so
    // when the balance suffices the INSERT's UNIQUE id is the check (one SELECT less per request).
    const available = availableOf(account);
    if (available < amount) {
      const found = existing(db, shape);
      if (found) return { transfer: found, created: false };
      throw fail.paymentRequired(notEnoughCredits('request', amount, available, false));
    }
    const transfer = appendIfNew(db, { ...shape, memo: input.memo ?? null, createdAtMs: input.nowMs });
    if (transfer) return { transfer, created: true };
    return { transfer: existing(db, shape)!, created: false };
  });
}
