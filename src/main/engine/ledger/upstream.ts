import type { Db } from '../store/db';
import { append, existing } from './append';
import { prep } from './prep';
import { inWriteTx } from './tx';
import type { TransferResult } from './types';
import { checkAmount, checkTransferId } from './validate';
import { MAX_MEMO_CHARS } from './types';

// Upstream spend as the ledger's own account (migration 059): every item the upstream billed moves
// from 'upstream_key' (the analyst's key at the upstream) to 'upstream', in credits, which are
// items (1 credit an item, docs/decisions.md). No user's balance moves: a local user pays Skein by
// its own charges; the transfer names the user whose request it paid for (cause_user_id).

export interface UpstreamAccounts {
  keyAccountId: number;
  upstreamAccountId: number;
}

const accountsOf = new WeakMap<Db, UpstreamAccounts>();

/** The two system accounts, found by kind once per connection (their ids follow the user accounts made before them). */
export function upstreamAccounts(db: Db): UpstreamAccounts {
  let found = accountsOf.get(db);
  if (!found) {
    const idOf = (kind: string) => {
      const id = prep(db, 'SELECT id FROM ledger_accounts WHERE kind = ?').pluck().get(kind) as number | undefined;
      if (id === undefined) throw new Error(`ledger: the '${kind}' account does not exist (migration 059)`);
      return id;
    };
    found = { keyAccountId: idOf('upstream_key'), upstreamAccountId: idOf('upstream') };
    accountsOf.set(db, found);
  }
  return found;
}

export interface UpstreamSpendInput {
  /** The spend book's line id with 'upstream:' in front: one transfer per answered request. */
  transferId: string;
  items: number;
  causeUserId: number | null;
  jobId: number | null;
  memo: string;
  nowMs: number;
}

/** Books what the upstream billed for one answer. The same id again returns the original and changes nothing. */
export function bookUpstreamSpend(db: Db, input: UpstreamSpendInput): TransferResult {
  const id = checkTransferId(input.transferId);
  const amount = checkAmount(input.items);
  return inWriteTx(db, () => {
    const { keyAccountId, upstreamAccountId } = upstreamAccounts(db);
    const shape = { id, kind: 'posted' as const, debitAccountId: keyAccountId, creditAccountId: upstreamAccountId, amount, jobId: input.jobId };
    const found = existing(db, shape);
    if (found) return { transfer: found, created: false };
    const transfer = append(db, { ...shape, memo: input.memo.slice(0, MAX_MEMO_CHARS), createdAtMs: input.nowMs, causeUserId: input.causeUserId });
    return { transfer, created: true };
  });
}

/** All the items the upstream billed for one local user's requests (a range scan of the cause index). */
export function upstreamItemsOf(db: Db, userId: number): number {
  return prep(db, 'SELECT total(amount) FROM ledger_transfers WHERE cause_user_id = ?').pluck().get(userId) as number;
}
