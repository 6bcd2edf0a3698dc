// The ledger's vocabulary. Amounts are whole credits (JS numbers: a balance never nears 2^53).

/** System account ids, created by migration 020. */
export const GRANTS_ACCOUNT_ID = 1;
export const USAGE_ACCOUNT_ID = 2;

/** The largest single movement: 10^12 credits, far above any real grant, far below 2^53. */
export const MAX_AMOUNT = 1_000_000_000_000;
/** A transfer's memo holds at most this many characters (migration 020's CHECK). */
export const MAX_MEMO_CHARS = 500;

export type TransferKind = 'posted' | 'pending' | 'post_pending' | 'void_pending';

export interface Transfer {
  seq: number;
  id: string;
  kind: TransferKind;
  debitAccountId: number;
  creditAccountId: number;
  amount: number;
  pendingId: string | null;
  jobId: number | null;
  memo: string | null;
  createdAtMs: number;
  /** On an upstream transfer: the local user whose request it paid for (migration 059); else null. */
  causeUserId: number | null;
}

export interface Balance {
  userId: number;
  /** credits_posted - debits_posted: what the user has, holds not counted. */
  posted: number;
  /** Held for running jobs (debits_pending). */
  pending: number;
  /** posted - pending: what a new request or job may spend. Never below zero. */
  available: number;
  creditsPosted: number;
  debitsPosted: number;
}

export interface Hold {
  holdId: string;
  userId: number;
  /** The job it reserves for; null for a metering float. */
  jobId: number | null;
  /** A metering float's owner (an API process); null for a job's hold. */
  floatOwner: string | null;
  amount: number;
  posted: number;
  voided: number;
  /** amount - posted - voided: what postFromHold may still post. */
  remaining: number;
  open: boolean;
}

/** What a transfer call returns: the transfer as stored, and whether this call appended it. */
export interface TransferResult {
  transfer: Transfer;
  /** false when the id was already there with the same content (an idempotent retry). */
  created: boolean;
}
