import { type ChargeInput, type ChargeOutcome, chargeGroup } from '../ledger';
import { inWriteTx } from '../ledger/tx';
import { prep } from '../ledger/prep';
import { isDiskFull } from '../disk/space';
import { SkeinError } from '../errors';
import type { Db } from '../store/db';
import { memoOf } from './charge-memo';
import type { Floats } from './floats';
import type { JournalMove } from './float-journal';
import type { CommittedBalances } from './committed-balances';
import { unstamped } from '../store/change-stamp';
import { busyAsFailure } from '../store/when-write-free';

/**
 * A metered request whose connection was gone before its charge was committed (the client closed
 * it, or Node's parser refused bytes that followed the request on it and closed it): its answer can
 * no longer be sent, so nothing is charged. Never seen by the client; said for the logs and tests.
 */
export const CONNECTION_GONE_MESSAGE = 'The connection closed before the answer could be sent: the request was not answered and nothing was charged.';

/** A metered request whose charge a full disk refused: a 500, not answered, nothing charged. */
export const DISK_FULL_MESSAGE =
  "Skein's disk is full: this request's charge could not be recorded, so it was not answered and nothing was charged. Retry once there is free space on the disk of Skein's data dir.";

/** How soon a group waiting for another connection's write lock tries again. */
export const LOCK_RETRY_MS = 2;
/**
 * How long a charge must have waited for another connection's write lock before the process opens
 * floats. An import's 1,000-record transaction holds the lock ~270 ms; the WAL checkpointer's
 * RESTART holds it for the copy of a few ms of commits, and a float opened for that costs every
 * request after it (post details at 10M: 155 µs of server CPU a request against 88 µs, bench
 * "post details", with 235 floats opened in one run). A job's batch commit (an export's 5,000 rows,
 * ~11 ms) is below it too: its charges wait for it as they did before floats, which the export
 * bench's p99 did not tell apart (docs/decisions.md).
 */
export const FLOAT_AFTER_WAIT_MS = 20;
/** How often journaled float charges with no request behind them are moved when the lock is free, and idle floats closed. */
export const FLOAT_TIDY_MS = 1_000;

/**
 * Request charges committed in groups: the charges queued while a group is open (below) are
 * written in one transaction, one transfer per user for the sum of that user's requests (the
 * ledger's chargeGroup: each request is still checked against the balance and refused alone). The
 * caller awaits its charge before answering, so a response never goes out for a charge that is not
 * committed: nothing is lost, as with a commit per request.
 *
 * Why (bench/api, 16 requests in flight): a commit per request wrote ~5 WAL pages per charge and
 * ran a WAL checkpoint every ~200 charges, ~300 µs CPU per metered request against ~100 µs for the
 * rest; a transfer per request still cost ~40 µs. A group touches its pages once and inserts one
 * row per user. With one request at a time a group is that one request: its own transfer and memo.
 *
 * A group stays open while the turns of the event loop keep adding to it (at most maxTurns turns):
 * requests that arrive while it forms join it, and a turn that adds nothing closes it, so a lone
 * request waits one extra turn (microseconds) and a busy server commits fewer, larger groups
 * (bench/api, 16 in flight: 9 requests a group when it committed after the first turn, 13 to 14
 * with four turns, ~10% less CPU per request in paired runs). Eight, not four: on the xl corpus
 * 791 of 1,802 groups still grew when four turns closed them; with eight, 825 of 1,675 groups held
 * all 16 requests in flight, and paired runs against four gave 1.00, 1.02 and 1.05 times the
 * requests a second (bench "post details", docs/decisions.md). A lone request is not affected.
 */
export class GroupCommit {
  private queue: Queued[] = [];
  /** The open group's number; a scheduled check of an earlier group (flushed meanwhile) stands down. */
  private generation = 0;
  private scheduled = false;

  /** When the current wait for another connection's write lock began (performance.now(); null: not waiting). */
  private lockWaitSinceMs: number | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  /** The connection's own busy timeout: how long a group waits for the lock in all. */
  private readonly busyTimeoutMs: number;

  private readonly tidyTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    /** Metering floats (floats.ts): charges answered while another connection holds the lock. Null: every charge waits for the lock. */
    private readonly floats: Floats | null = null,
    /** Where each commit leaves its users' balances, for the balance checks after it. */
    private readonly balances: CommittedBalances | null = null,
    /** At most this many charges per transaction, so one group never holds the write lock long. */
    private readonly maxGroup = 256,
    /** At most this many turns of the event loop a group stays open, so a response waits little. */
    private readonly maxTurns = 8,
  ) {
    this.busyTimeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
    if (floats) {
      // Charges answered from a float with no request after them would stay in the journal, and
      // floats would stay open, until the next request: this moves them once the lock is free.
      this.tidyTimer = setInterval(() => {
        if (!this.scheduled && !this.retryTimer && this.queue.length === 0 && floats.wantsWrite()) this.flush();
      }, FLOAT_TIDY_MS);
      this.tidyTimer.unref();
    }
  }

  /** No more tidying (the database is about to close). */
  stop(): void {
    if (this.tidyTimer) clearInterval(this.tidyTimer);
  }

  /**
   * Queues a charge; `settled` runs once its outcome is known (the caller's reservation release).
   * `answerable` is asked when the group commits: false (the request's connection is gone) drops the
   * charge, which then rejects with CONNECTION_GONE_MESSAGE, so no credit pays for an answer never sent.
   */
  charge(input: ChargeInput, settled?: () => void, answerable?: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject, settled, answerable });
      if (this.queue.length >= this.maxGroup) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        const generation = this.generation;
        let turns = 0;
        let seen = 0;
        // setImmediate: after the poll phase, so the requests parsed in a turn join the group.
        const check = () => {
          if (generation !== this.generation) return;
          const grew = this.queue.length > seen;
          seen = this.queue.length;
          if (grew && ++turns < this.maxTurns) setImmediate(check);
          else this.flush();
        };
        setImmediate(check);
      }
    });
  }

  /**
   * Commits what is queued now, once the write lock is free. Another connection holding it (a
   * job's batch, `skein import` in its own process) is waited for off the event loop: the commit
   * starts without SQLite's busy timeout and, refused, is tried again LOCK_RETRY_MS later, so the
   * process answers every other request meanwhile (a free read, the app's pages, a job's status)
   * instead of sleeping in SQLite's busy handler with the charge (an import's 1,000-record
   * transactions hold the lock ~270 ms each). Once the connection's busy timeout has passed since
   * the wait began, the commit waits inside SQLite as before, and fails as before if it must.
   * `wait: false` (just before the database closes) does that at once.
   */
  flush(options: { wait?: boolean } = {}): void {
    this.scheduled = false;
    this.generation++;
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    const queued = this.queue;
    const floatWork = this.floats?.wantsWrite() ?? false;
    if (queued.length === 0 && !floatWork) return;
    this.queue = [];
    let group: Queued[] = [];
    for (const q of queued) {
      if (q.answerable === undefined || q.answerable()) group.push(q);
      else {
        q.settled?.();
        q.reject(new SkeinError('invalid', CONNECTION_GONE_MESSAGE));
      }
    }
    if (group.length === 0 && !floatWork) return;
    const byUser = new Map<number, Queued[]>();
    for (const q of group) {
      const mine = byUser.get(q.input.userId);
      if (mine) mine.push(q);
      else byUser.set(q.input.userId, [q]);
    }
    const waited = this.lockWaitSinceMs === null ? 0 : performance.now() - this.lockWaitSinceMs;
    // Float work alone (no charge queued) never waits for the lock: it is tried again later.
    const floatOnly = group.length === 0;
    const tryOnly = options.wait !== false && (floatOnly || waited < this.busyTimeoutMs) && this.db.open && !this.db.inTransaction;
    let moved: JournalMove[] = [];
    try {
      if (!this.db.open) throw new Error('The database is closed; the charge was not written.');
      if (tryOnly) prep(this.db, 'PRAGMA busy_timeout = 0').get();
      // Unstamped: it writes ledger rows only, so an API key read before it is still current
      // (store/change-stamp.ts); the balances it changes are read at its end instead.
      unstamped(this.db, () => inWriteTx(this.db, () => {
        moved = this.floats?.settle() ?? [];
        for (const [userId, mine] of byUser) {
          const first = mine[0]!.input;
          try {
            const inputs = mine.map((q) => q.input);
            const results =
              this.floats?.chargeUser(userId, inputs, memoOfInputs) ??
              chargeGroup(this.db, { transferId: first.transferId, userId, amounts: inputs.map((i) => i.amount), nowMs: first.nowMs, memo: memoOfInputs(inputs) });
            mine.forEach((q, i) => (q.outcome = results[i]));
          } catch (err) {
            // This user's group only (an unknown user): chargeGroup rolled back its own savepoint.
            for (const q of mine) q.outcome = { err };
          }
        }
        this.floats?.maintain(byUser.keys());
        this.balances?.read(byUser.keys());
      }));
    } catch (err) {
      this.balances?.rolledBack();
      this.floats?.afterRollback();
      if (tryOnly && (err as { code?: string }).code === 'SQLITE_BUSY') {
        // Another connection holds the write lock: nothing was written. What the users' floats
        // cover is answered now from the journal; the rest waits, first in line, and the charges
        // queued meanwhile join it.
        if (floatOnly) return;
        this.lockWaitSinceMs ??= performance.now();
        if (performance.now() - this.lockWaitSinceMs >= FLOAT_AFTER_WAIT_MS) this.floats?.noteContention();
        const answered = this.floats?.drawWhileBusy(byUser) ?? [];
        if (answered.length) {
          const done = new Set(answered);
          group = group.filter((q) => !done.has(q));
          for (const q of answered) {
            q.settled?.();
            q.resolve();
          }
        }
        if (group.length === 0) {
          this.lockWaitSinceMs = null;
          return;
        }
        this.queue = group.concat(this.queue);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.flush();
        }, LOCK_RETRY_MS);
        return;
      }
      this.lockWaitSinceMs = null;
      // The transaction failed (disk full, the lock not obtained within busy_timeout): nothing of
      // the group was written, so every charge in it fails. A full disk is said as such (issue 13):
      // "Internal error" sent the script's author looking for a bug in Skein.
      const why = isDiskFull(err) ? new SkeinError('internal', DISK_FULL_MESSAGE) : busyAsFailure(err);
      for (const q of group) {
        q.settled?.();
        q.reject(why);
      }
      return;
    } finally {
      if (tryOnly && this.db.open) prep(this.db, `PRAGMA busy_timeout = ${this.busyTimeoutMs}`).get();
    }
    this.lockWaitSinceMs = null;
    this.balances?.committed();
    this.floats?.afterCommit(moved);
    // Settled only now that the transaction has committed.
    for (const { outcome, resolve, reject, settled } of group) {
      settled?.();
      if (outcome && 'ok' in outcome) resolve();
      else reject(outcome?.err);
    }
  }
}

interface Queued {
  input: ChargeInput;
  /** Set inside the transaction, acted on after it commits. */
  outcome?: ChargeOutcome;
  resolve: () => void;
  reject: (err: unknown) => void;
  settled?: () => void;
  answerable?: () => boolean;
}

const memoOfInputs = (inputs: readonly ChargeInput[]): string => memoOf(inputs.map((i) => i.memo ?? ''));
