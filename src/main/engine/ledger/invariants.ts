import type { Db } from '../store/db';
import { readCheckpoint } from './checkpoint';
import { accountRows, addTransferSums, balanceMismatches, copySums, maxTransferSeq, type SumsByAccount } from './sums';

// The ledger's invariants, TigerBeetle-style: checked in full in the tests after every step of the
// simulation and by `skein doctor`, and from the checkpoint on at every engine start, so a bug
// shows up as a precise violation, never as a quietly wrong balance.

export interface Violation {
  rule:
    | 'debits_equal_credits'
    | 'balance_below_zero'
    | 'balance_matches_transfers'
    | 'hold_matches_transfers'
    | 'open_hold_without_running_job'
    | 'upstream_matches_spend_book';
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

/** The full check: every rule over every transfer (`skein doctor`, the tests). */
export function checkInvariants(db: Db): Violation[] {
  return fullCheck(db).violations;
}

export interface CheckResult {
  violations: Violation[];
  /** The newest transfer the check saw (its snapshot). */
  seq: number;
  /** What the transfers up to `seq` sum to per account: the next checkpoint's sums when clean. */
  sums: SumsByAccount;
}

/**
 * Every rule, every transfer re-derived: 0.55 s per million transfers on 2 cores, so it is
 * `skein doctor`'s job; a start runs checkSinceCheckpoint. One read snapshot, so a write from
 * another process (a CLI grant beside the server) cannot show up half-seen as a violation.
 */
export function fullCheck(db: Db): CheckResult {
  return inReadSnapshot(db, () => {
    const list = violationList();
    checkAccountTable(db, list.add);
    const seq = maxTransferSeq(db);
    const sums = addTransferSums(db, new Map(), 0, seq);
    for (const m of balanceMismatches(accountRows(db), sums)) list.add('balance_matches_transfers', m);
    checkHolds(db, list.add, null);
    checkOrphanHolds(db, list.add);
    checkUpstreamBook(db, list.add);
    return { violations: list.out, seq, sums };
  });
}

/**
 * The start-up check, complete for everything written since the checkpoint and cheap whatever the
 * ledger's age: the account table (debits = credits, nobody below zero: accounts are few), the
 * checkpoint's sums plus the transfers after its seq (a range scan on seq) against every account's
 * running balances, every hold that is open or has a transfer after the checkpoint, and every
 * open hold's job. What it cannot see: a transfer at or before the checkpoint rewritten in place
 * (the append-only triggers refuse that; it takes dropping them) and a closed hold's row changed
 * while no transfer of it came later. `skein doctor` re-derives those.
 */
export function checkSinceCheckpoint(db: Db): CheckResult & { checkpointSeq: number } {
  return inReadSnapshot(db, () => {
    const list = violationList();
    checkAccountTable(db, list.add);
    const checkpoint = readCheckpoint(db);
    const seq = maxTransferSeq(db);
    const sums = addTransferSums(db, copySums(checkpoint.sums), checkpoint.seq, seq);
    for (const m of balanceMismatches(accountRows(db), sums)) list.add('balance_matches_transfers', m);
    checkHolds(db, list.add, checkpoint.seq);
    checkOrphanHolds(db, list.add);
    return { violations: list.out, seq, sums, checkpointSeq: checkpoint.seq };
  });
}

type Add = (rule: Violation['rule'], detail: string) => void;

function violationList(): { out: Violation[]; add: Add } {
  const out: Violation[] = [];
  return {
    out,
    add: (rule, detail) => {
      if (out.length < MAX_LISTED) out.push({ rule, detail });
    },
  };
}

/** A deferred transaction that only reads holds one snapshot; inside a caller's, theirs is it. */
function inReadSnapshot<T>(db: Db, fn: () => T): T {
  return db.inTransaction ? fn() : db.transaction(fn)();
}

function checkAccountTable(db: Db, add: Add): void {
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
}

/**
 * Every hold's posted/voided must match its post and void transfers, and every pending transfer
 * has a hold. `afterSeq` null: every hold; a number: the holds that are open or have a transfer
 * after that seq (their post/void transfers found through the pending_id index).
 */
function checkHolds(db: Db, add: Add, afterSeq: number | null): void {
  const holds =
    afterSeq === null
      ? `SELECT id FROM ledger_transfers WHERE kind = 'pending'`
      : `SELECT id FROM ledger_transfers WHERE seq > @after AND kind = 'pending'
         UNION SELECT pending_id FROM ledger_transfers WHERE seq > @after AND pending_id IS NOT NULL
         UNION SELECT transfer_id FROM ledger_holds WHERE closed_at_ms IS NULL`;
  for (const h of db
    .prepare(
      `WITH checked(id) AS (${holds}),
       resolved AS (
         SELECT pending_id, total(CASE kind WHEN 'post_pending' THEN amount END) AS sp,
                total(CASE kind WHEN 'void_pending' THEN amount END) AS sv
         FROM ledger_transfers WHERE pending_id IN (SELECT id FROM checked) GROUP BY pending_id)
       SELECT t.id, t.amount, h.transfer_id AS hid, h.amount AS hamount, h.posted, h.voided,
              coalesce(r.sp, 0) AS sp, coalesce(r.sv, 0) AS sv
       FROM checked k CROSS JOIN ledger_transfers t ON t.id = k.id
       LEFT JOIN ledger_holds h ON h.transfer_id = t.id LEFT JOIN resolved r ON r.pending_id = t.id
       WHERE t.kind = 'pending' AND (h.transfer_id IS NULL OR h.amount <> t.amount OR h.posted <> coalesce(r.sp, 0)
             OR h.voided <> coalesce(r.sv, 0) OR coalesce(r.sp, 0) + coalesce(r.sv, 0) > t.amount)`,
    )
    .all(afterSeq === null ? {} : { after: afterSeq }) as { id: string; amount: number; hid: string | null; hamount: number; posted: number; voided: number; sp: number; sv: number }[]) {
    if (h.hid === null) add('hold_matches_transfers', `pending transfer '${h.id}' has no hold row`);
    else add('hold_matches_transfers', `hold '${h.id}' stores amount ${h.hamount}, posted ${h.posted}, voided ${h.voided}; transfers say ${h.amount}, ${h.sp}, ${h.sv}`);
  }
}

/**
 * The upstream account (migration 059) and the spend book (upstream_spend, 054) are written in one
 * transaction, one transfer per line under the line's id: they must agree line for line. A full
 * pass over both (a few hundred thousand lines at most: one per answered upstream request), so
 * `skein doctor` runs it, not the start.
 */
function checkUpstreamBook(db: Db, add: Add): void {
  const hasBook = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'upstream_spend'`).get() !== undefined;
  const account = db.prepare(`SELECT id, credits_posted FROM ledger_accounts WHERE kind = 'upstream'`).get() as { id: number; credits_posted: number } | undefined;
  if (!hasBook || !account) return;
  const unmatched = db
    .prepare(
      `SELECT 'line' AS side, s.id AS id FROM upstream_spend s
       LEFT JOIN ledger_transfers t ON t.id = 'upstream:' || s.id AND t.credit_account_id = @account AND t.amount = s.items
       WHERE t.seq IS NULL
       UNION ALL
       SELECT 'transfer', t.id FROM ledger_transfers t
       LEFT JOIN upstream_spend s ON s.id = substr(t.id, 10)
       WHERE t.credit_account_id = @account AND s.seq IS NULL
       LIMIT ${MAX_LISTED}`,
    )
    .all({ account: account.id }) as { side: 'line' | 'transfer'; id: string }[];
  for (const u of unmatched) {
    add(
      'upstream_matches_spend_book',
      u.side === 'line' ? `spend line '${u.id}' has no upstream transfer of its items` : `upstream transfer '${u.id}' has no spend line`,
    );
  }
}

function checkOrphanHolds(db: Db, add: Add): void {
  for (const o of orphanHolds(db)) {
    add('open_hold_without_running_job', `hold '${o.holdId}' is open but job ${o.jobId} is ${o.jobStatus ?? 'missing'}`);
  }
}

/**
 * Open holds whose job is not pending or processing. A metering float has no job: it lives while
 * its API process does (float.ts; a dead process's floats are closed by the metering's recovery). Migration 030 (jobs) may not exist in this
 * build or this test database yet; then no job is running and every open hold is one.
 */
export function orphanHolds(db: Db): { holdId: string; jobId: number; jobStatus: string | null }[] {
  const hasJobs = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'`).get() !== undefined;
  return (
    db
      .prepare(
        hasJobs
          ? `SELECT h.transfer_id, h.job_id, j.status FROM ledger_holds h LEFT JOIN jobs j ON j.id = h.job_id
             WHERE h.closed_at_ms IS NULL AND h.job_id IS NOT NULL AND (j.id IS NULL OR j.status NOT IN ('pending', 'processing'))`
          : `SELECT transfer_id, job_id, NULL AS status FROM ledger_holds WHERE closed_at_ms IS NULL AND job_id IS NOT NULL`,
      )
      .all() as { transfer_id: string; job_id: number; status: string | null }[]
  ).map((r) => ({ holdId: r.transfer_id, jobId: r.job_id, jobStatus: r.status }));
}

/** Throws LedgerInvariantError listing every violation (up to 50). */
export function assertInvariants(db: Db): void {
  const violations = checkInvariants(db);
  if (violations.length) throw new LedgerInvariantError(violations);
}
