import type { Db } from '../store/db';

// What the transfers say each account's four running balances are: the one derivation shared by
// the full check (`skein doctor`), the start-up check and the checkpoint.

export interface AccountSums {
  dq: number; // debits_pending
  dp: number; // debits_posted
  cq: number; // credits_pending
  cp: number; // credits_posted
}

export type SumsByAccount = Map<number, AccountSums>;

export function sumsAt(sums: SumsByAccount, id: number): AccountSums {
  let s = sums.get(id);
  if (!s) sums.set(id, (s = { dq: 0, dp: 0, cq: 0, cp: 0 }));
  return s;
}

export function copySums(sums: SumsByAccount): SumsByAccount {
  return new Map([...sums].map(([id, s]) => [id, { ...s }]));
}

/**
 * Adds to `into` the effect of the transfers with afterSeq < seq <= uptoSeq. One pass over the
 * rows (a range scan on seq, the table's rowid), grouped by (debit, credit, kind): a group per
 * pair of accounts and kind, so a few hundred groups at most however many transfers there are.
 * Measured at 1M transfers (2 cores): 0.55 s for one grouped pass against 1.0 s for the two passes
 * (one per side) it replaces.
 */
export function addTransferSums(db: Db, into: SumsByAccount, afterSeq: number, uptoSeq = Number.MAX_SAFE_INTEGER): SumsByAccount {
  const rows = db
    .prepare(
      `SELECT debit_account_id AS d, credit_account_id AS c, kind, total(amount) AS amount FROM ledger_transfers
       WHERE seq > ? AND seq <= ? GROUP BY debit_account_id, credit_account_id, kind`,
    )
    .all(afterSeq, uptoSeq) as { d: number; c: number; kind: string; amount: number }[];
  for (const r of rows) {
    const d = sumsAt(into, r.d);
    const c = sumsAt(into, r.c);
    // TigerBeetle's rules: a hold adds to pending; posting part of it (or voiding the rest) takes
    // that part out of pending, and a post also adds it to posted.
    if (r.kind === 'pending') {
      d.dq += r.amount;
      c.cq += r.amount;
    } else if (r.kind === 'post_pending' || r.kind === 'void_pending') {
      d.dq -= r.amount;
      c.cq -= r.amount;
    }
    if (r.kind === 'posted' || r.kind === 'post_pending') {
      d.dp += r.amount;
      c.cp += r.amount;
    }
  }
  return into;
}

export interface AccountRow {
  id: number;
  debits_pending: number;
  debits_posted: number;
  credits_pending: number;
  credits_posted: number;
}

export function accountRows(db: Db): AccountRow[] {
  return db.prepare('SELECT id, debits_pending, debits_posted, credits_pending, credits_posted FROM ledger_accounts').all() as AccountRow[];
}

/** "account N stores (...) but its transfers sum to (...)" for each account that disagrees. */
export function balanceMismatches(accounts: AccountRow[], sums: SumsByAccount): string[] {
  const out: string[] = [];
  for (const a of accounts) {
    const r = sums.get(a.id) ?? { dq: 0, dp: 0, cq: 0, cp: 0 };
    if (a.debits_pending !== r.dq || a.debits_posted !== r.dp || a.credits_pending !== r.cq || a.credits_posted !== r.cp) {
      out.push(
        `account ${a.id} stores (dpend ${a.debits_pending}, dpost ${a.debits_posted}, cpend ${a.credits_pending}, cpost ${a.credits_posted}) ` +
          `but its transfers sum to (${r.dq}, ${r.dp}, ${r.cq}, ${r.cp})`,
      );
    }
  }
  return out;
}

export function maxTransferSeq(db: Db): number {
  return (db.prepare('SELECT coalesce(max(seq), 0) AS s FROM ledger_transfers').get() as { s: number }).s;
}
