import { fail } from '../errors';
import type { Db } from '../store/db';
import { type AccountRow, availableOf, userAccount } from './accounts';
import { notEnoughCredits } from './messages';
import { existing, insertIfNew, moveAccounts } from './append';
import { takeBackFloat } from './float-keeper';
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
  const outcome = chargeBatch(db, [input])[0]!;
  if ('err' in outcome) throw outcome.err;
  return outcome.ok;
}

/** One charge's outcome in a batch: its result, or the error charge() would have thrown. */
export type ChargeOutcome = { ok: TransferResult } | { err: unknown };

/**
 * Many charges as one write transaction (TigerBeetle's batches): each charge gets the outcome
 * charge() alone would give, in order, and a refused charge changes nothing and does not affect the
 * others. Each user's account is read once and moved once for all its new transfers, so n charges
 * cost n INSERTs, one UPDATE per user and one commit. Throws (having written nothing) only when
 * the transaction itself fails.
 */
export function chargeBatch(db: Db, inputs: readonly ChargeInput[]): ChargeOutcome[] {
  return inWriteTx(db, () => {
    const users = new Map<number, { account: AccountRow; available: number; spent: number }>();
    const outcomes = inputs.map((input): ChargeOutcome => {
      try {
        const id = checkTransferId(input.transferId);
        const amount = checkAmount(input.amount);
        const userId = checkWholeId(input.userId, 'userId');
        let user = users.get(userId);
        if (!user) {
          const account = userAccount(db, userId);
          users.set(userId, (user = { account, available: availableOf(account), spent: 0 }));
        }
        const shape = { id, kind: 'posted' as const, debitAccountId: user.account.id, creditAccountId: USAGE_ACCOUNT_ID, amount };
        // The idempotency rule first (a retry returns the original, even when the balance is short
        // now; other content is a conflict), then the balance. A request's id is new almost always,
        // so when the balance suffices the INSERT's UNIQUE id is the check (no SELECT before it).
        if (user.available < amount) {
          const found = existing(db, shape);
          if (found) return { ok: { transfer: found, created: false } };
          // This process's metering float holds some of the user's credits: give them back first.
          if (takeBackFloat(db, userId, input.nowMs)) {
            user.account = userAccount(db, userId);
            user.available = availableOf(user.account) - user.spent;
          }
        }
        if (user.available < amount) {
          throw fail.paymentRequired(notEnoughCredits('request', amount, user.available, false));
        }
        const transfer = insertIfNew(db, { ...shape, memo: input.memo ?? null, createdAtMs: input.nowMs });
        if (!transfer) return { ok: { transfer: existing(db, shape)!, created: false } };
        user.available -= amount;
        user.spent += amount;
        return { ok: { transfer, created: true } };
      } catch (err) {
        return { err };
      }
    });
    for (const { account, spent } of users.values()) {
      if (spent > 0) moveAccounts(db, { kind: 'posted', debitAccountId: account.id, creditAccountId: USAGE_ACCOUNT_ID, amount: spent }, `a batch of charges of account ${account.id}`);
    }
    return outcomes;
  });
}

export interface GroupChargeInput {
  /** The group's transfer id (the metering uses its first request's id). */
  transferId: string;
  userId: number;
  /** The prices of the group's requests, in the order they are decided. */
  amounts: readonly number[];
  nowMs: number;
  memo?: string;
}

/**
 * The prices of one user's requests that finished together, as one transfer of their sum: each
 * price is checked in order against what is left, a price the balance cannot cover is refused
 * (payment_required, it does not count), and the accepted sum is posted once. Outcomes are per
 * price, in order; the accepted ones share the transfer. A group of one is exactly charge().
 *
 * Why one transfer rather than one per request: a transfer's INSERT (the row, three index entries,
 * two foreign-key probes) was a quarter of a metered request's CPU at 16 requests in flight
 * (bench/api). The history then shows "12 requests: GET /social/tweets/…, …" instead of 12 lines.
 */
export function chargeGroup(db: Db, input: GroupChargeInput): ChargeOutcome[] {
  if (input.amounts.length === 1) return chargeBatch(db, [{ ...input, amount: input.amounts[0]! }]);
  const id = checkTransferId(input.transferId);
  const userId = checkWholeId(input.userId, 'userId');
  const amounts = input.amounts.map((a) => checkAmount(a));
  return inWriteTx(db, () => {
    const account = userAccount(db, userId);
    let available = availableOf(account);
    let sum = 0;
    const accepted = amounts.map((amount) => {
      if (available < amount) {
        // As in chargeBatch: this process's metering float gives its credits back first.
        if (takeBackFloat(db, userId, input.nowMs)) available = availableOf(userAccount(db, userId)) - sum;
      }
      if (available < amount) return fail.paymentRequired(notEnoughCredits('request', amount, available, false));
      available -= amount;
      sum += amount;
      return true;
    });
    let result: TransferResult | undefined;
    if (sum > 0) {
      const shape = { id, kind: 'posted' as const, debitAccountId: account.id, creditAccountId: USAGE_ACCOUNT_ID, amount: sum };
      const transfer = insertIfNew(db, { ...shape, memo: input.memo ?? null, createdAtMs: input.nowMs });
      // A group's id is its first request's, new by construction; a reused one is a caller's bug.
      if (!transfer) throw fail.conflict(`Transfer id '${id}' was already used; a group of request charges needs a new one.`);
      moveAccounts(db, shape, `transfer '${id}'`);
      result = { transfer, created: true };
    }
    return accepted.map((a): ChargeOutcome => (a === true ? { ok: result! } : { err: a }));
  });
}
