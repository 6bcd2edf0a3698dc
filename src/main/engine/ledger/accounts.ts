import { fail } from '../errors';
import { prep } from './prep';
import type { Db } from '../store/db';

export interface AccountRow {
  id: number;
  kind: 'grants' | 'usage' | 'user' | 'upstream_key' | 'upstream';
  user_id: number | null;
  debits_pending: number;
  debits_posted: number;
  credits_pending: number;
  credits_posted: number;
}

/** The account of an api user. A trigger on api_users (migrations 020, 050) opens one for every user it creates. */
export function userAccount(db: Db, userId: number): AccountRow {
  const row = prep(db, 'SELECT * FROM ledger_accounts WHERE user_id = ?').get(userId) as AccountRow | undefined;
  if (!row) throw fail.notFound(`No api user with id ${userId}.`);
  return row;
}

export function accountById(db: Db, id: number): AccountRow {
  const row = prep(db, 'SELECT * FROM ledger_accounts WHERE id = ?').get(id) as AccountRow | undefined;
  if (!row) throw new Error(`ledger: account ${id} does not exist`);
  return row;
}

/** credits posted - debits posted - debits pending: what may still be spent or held. */
export function availableOf(a: AccountRow): number {
  return a.credits_posted - a.debits_posted - a.debits_pending;
}
