import type { Db } from '../store/db';

// The ledger's invariants, TigerBeetle-style: checked in the tests after every step of the
// simulation and at every engine start, so a bug shows up as a precise violation, never as a
// quietly wrong balance.

export interface Violation {
  rule:
    | 'debits_equal_credits'
    | 'balance_below_zero'
    | 'balance_matches_transfers'
    | 'hold_matches_transfers'
    | 'open_hold_without_running_job';
  detail: string;
}

export class LedgerInvariantError extends Error {
  override name = 'LedgerInvariantError';
  constructor(readonly violations: Violation[]) {
    super(`Ledger invariants violated (${violations.length}):\n${violations.map((v) => `- ${v.rule}: ${v.detail}`).join('\n')}`);
  }
}

/** At most this many violations are listed: a broken ledger must not flood the log. */
const MAX_LISTED = 50;

export function checkInvariants(db: Db): Violation[] {
  const out: Violation[] = [];
  const add = (rule: Violation['rule'], detail: string) => {
    if (out.length < MAX_LISTED) out.push({ rule, detail });
  };

  const totals = db
    .prepare('SELECT total(debits_posted) dp, total(credits_posted) cp, total(debits_pending) dq, total(credits_pending) cq FROM ledger_accounts')
    .get() as { dp: number; cp: number; dq: number; cq: number };
  if (totals.dp !== totals.cp) add('debits_equal_credits', `posted debits ${totals.dp} != posted credits ${totals.cp}`);
  if (totals.dq !== totals.cq) add('debits_equal_credits', `pending debits ${totals.dq} != pending credits ${totals.cq}`);

  for (const a of db
    .prepare(
      `SELECT id, user_id, credits_posted - debits_posted - debits_pending AS available FROM ledger_accounts
       WHERE kind = 'user' AND credits_posted - debits_posted - debits_pending < 0`,
    )
    .all() as { id: number; user_id: number; available: number }[]) {
    add('balance_below_zero', `account ${a.id} (user ${a.user_id}) has ${a.available} available`);
  }

  // Re-derive every account's four balances from the transfers (the running sums must agree):
  // two grouped scans, combined here, instead of a join per account.
  const sums = new Map<number, { dq: number; dp: number; cq: number; cp: number }>();
  const at = (id: number) => {
    let s = sums.get(id);
    if (!s) sums.set(id, (s = { dq: 0, dp: 0, cq: 0, cp: 0 }));
    return s;
  };
  const grouped = (side: 'debit' | 'credit') =>
    db.prepare(`SELECT ${side}_account_id AS acc, kind, total(amount) AS amount FROM ledger_transfers GROUP BY ${side}_account_id, kind`).all() as {
      acc: number;
      kind: string;
      amount: number;
    }[];
  for (const r of grouped('debit')) {
    const s = at(r.acc);
    if (r.kind === 'pending') s.dq += r.amount;
    if (r.kind === 'post_pending' || r.kind === 'void_pending') s.dq -= r.amount;
    if (r.kind === 'posted' || r.kind === 'post_pending') s.dp += r.amount;
  }
  for (const r of grouped('credit')) {
    const s = at(r.acc);
    if (r.kind === 'pending') s.cq += r.amount;
    if (r.kind === 'post_pending' || r.kind === 'void_pending') s.cq -= r.amount;
    if (r.kind === 'posted' || r.kind === 'post_pending') s.cp += r.amount;
  }
  const accounts = db.prepare('SELECT id, debits_pending, debits_posted, credits_pending, credits_posted FROM ledger_accounts').all() as {
    id: number;
    debits_pending: number;
    debits_posted: number;
    credits_pending: number;
    credits_posted: number;
  }[];
  for (const a of accounts) {
    const r = at(a.id);
    if (a.debits_pending !== r.dq || a.debits_posted !== r.dp || a.credits_pending !== r.cq || a.credits_posted !== r.cp) {
      add(
        'balance_matches_transfers',
        `account ${a.id} stores (dpend ${a.debits_pending}, dpost ${a.debits_posted}, cpend ${a.credits_pending}, cpost ${a.credits_posted}) ` +
          `but its transfers sum to (${r.dq}, ${r.dp}, ${r.cq}, ${r.cp})`,
      );
    }
  }

  // Every hold's posted/voided must match its post and void transfers, and every pending transfer has a hold.
  for (const h of db
    .prepare(
      `WITH resolved AS (
         SELECT pending_id, total(CASE kind WHEN 'post_pending' THEN amount END) AS sp,
                total(CASE kind WHEN 'void_pending' THEN amount END) AS sv
         FROM ledger_transfers WHERE pending_id IS NOT NULL GROUP BY pending_id)
       SELECT t.id, t.amount, h.transfer_id AS hid, h.amount AS hamount, h.posted, h.voided,
              coalesce(r.sp, 0) AS sp, coalesce(r.sv, 0) AS sv
       FROM ledger_transfers t LEFT JOIN ledger_holds h ON h.transfer_id = t.id LEFT JOIN resolved r ON r.pending_id = t.id
       WHERE t.kind = 'pending' AND (h.transfer_id IS NULL OR h.amount <> t.amount OR h.posted <> coalesce(r.sp, 0)
             OR h.voided <> coalesce(r.sv, 0) OR coalesce(r.sp, 0) + coalesce(r.sv, 0) > t.amount)`,
    )
    .all() as { id: string; amount: number; hid: string | null; hamount: number; posted: number; voided: number; sp: number; sv: number }[]) {
    if (h.hid === null) add('hold_matches_transfers', `pending transfer '${h.id}' has no hold row`);
    else add('hold_matches_transfers', `hold '${h.id}' stores amount ${h.hamount}, posted ${h.posted}, voided ${h.voided}; transfers say ${h.amount}, ${h.sp}, ${h.sv}`);
  }

  for (const o of orphanHolds(db)) {
    add('open_hold_without_running_job', `hold '${o.holdId}' is open but job ${o.jobId} is ${o.jobStatus ?? 'missing'}`);
  }
  return out;
}

/**
 * Open holds whose job is not pending or processing. Migration 030 (jobs) may not exist in this
 * build or this test database yet; then no job is running and every open hold is one.
 */
export function orphanHolds(db: Db): { holdId: string; jobId: number; jobStatus: string | null }[] {
  const hasJobs = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'`).get() !== undefined;
  return (
    db
      .prepare(
        hasJobs
          ? `SELECT h.transfer_id, h.job_id, j.status FROM ledger_holds h LEFT JOIN jobs j ON j.id = h.job_id
             WHERE h.closed_at_ms IS NULL AND (j.id IS NULL OR j.status NOT IN ('pending', 'processing'))`
          : `SELECT transfer_id, job_id, NULL AS status FROM ledger_holds WHERE closed_at_ms IS NULL`,
      )
      .all() as { transfer_id: string; job_id: number; status: string | null }[]
  ).map((r) => ({ holdId: r.transfer_id, jobId: r.job_id, jobStatus: r.status }));
}

/** Throws LedgerInvariantError listing every violation (up to 50). */
export function assertInvariants(db: Db): void {
  const violations = checkInvariants(db);
  if (violations.length) throw new LedgerInvariantError(violations);
}
