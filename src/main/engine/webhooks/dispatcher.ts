import type { Clock } from '../clock';
import { listenerBaseUrl } from '../jobs/base-url';
import { getJob } from '../jobs/job-row';
import { jobStatusBody } from '../jobs/status-body';
import type { Db } from '../store/db';
import { deliverWebhook, WEBHOOK_TIMEOUT_MS, type DeliveryOutcome } from './deliver';
import { readSecret, type SecretColumns, type SecretKeeper } from './secret-store';
import { prep } from '../ledger/prep';
import { LOCK_TAKEN, retryTimer, writeIfFree } from '../store/when-write-free';

/** Deliveries in flight at once: a slow receiver never holds up the others or the runner. */
const MAX_IN_FLIGHT = 8;
/** A delivery whose secret cannot be read now is tried again this much later (the runner polls every 500 ms). */
export const SECRET_RETRY_MS = 60_000;
/** ...and given up, never sent, once it has waited this long: a day, like a job on a full disk. */
export const SECRET_GIVE_UP_MS = 24 * 3_600_000;

export interface DispatcherOptions {
  timeoutMs?: number;
  /** The OS keychain, for secrets kept there; null (the default) where none answers. */
  keychain?: SecretKeeper | null;
  /** Deliveries in flight at once (default 8). */
  maxInFlight?: number;
  /** Where a refused write is said (default: stderr). */
  log?: (line: string) => void;
}

interface Claimed extends SecretColumns {
  id: number;
  url: string;
  body: string;
  created_at_ms: number;
}

/**
 * Sends the outbox (webhook_deliveries, state 'pending') in the background. A row is claimed
 * ('sending', its body fixed), then its secret is read from wherever it lives, then the start of
 * the call is recorded (started_at_ms), then the one call is made and its outcome recorded
 * ('delivered' or 'failed', with the HTTP status, the error, the time and the duration). Never
 * retried once called (spec 6). A secret that cannot be read puts the row back to 'pending' with
 * the reason: it is never sent unsigned. Waits for the listener's address, since the body carries
 * the data file's URL.
 *
 * A write SQLite refuses (a full disk: SQLITE_FULL) never escapes: kick() is called from timers
 * and from the end of each call, where a throw was an unhandled rejection that ended the process.
 * The refused write is kept, said once on stderr, and written again at every kick before anything
 * new is claimed; the call it records is not made again.
 */
export class WebhookDispatcher {
  private inFlight = new Set<Promise<void>>();
  /** Writes SQLite refused, by delivery id, tried again at every kick. */
  private owed = new Map<number, () => void>();
  private said = new Set<string>();
  /** A kick again shortly: a write of this one found the lock taken. */
  private readonly retry = retryTimer(() => this.kick());
  private readonly timeoutMs: number;
  private readonly keychain: SecretKeeper | null;
  private readonly maxInFlight: number;
  private readonly log: (line: string) => void;

  constructor(private readonly db: Db, private readonly clock: Clock, options: DispatcherOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.keychain = options.keychain ?? null;
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.log = options.log ?? ((line) => console.error(line));
  }

  /**
   * At start, rows a stopped process left 'sending': called (started_at_ms set) they are failed, not
   * repeated; claimed but never called (their secret was being read) they go back to 'pending'.
   * Deliveries waiting for their secret are tried at once: this process may reach a keychain the
   * last one could not.
   */
  failInterrupted(): number {
    // Read first: with nothing to mend (almost always) a start asks for no write lock, so `skein
    // serve` started during `skein import` does not wait for the importer here.
    const mend = `SELECT 1 FROM webhook_deliveries WHERE state = 'sending' OR (state = 'pending' AND retry_at_ms IS NOT NULL) LIMIT 1`;
    if (this.db.prepare(mend).get() === undefined) return 0;
    const now = this.clock.nowMs();
    this.db.prepare(`UPDATE webhook_deliveries SET state = 'pending', body_json = NULL WHERE state = 'sending' AND started_at_ms IS NULL`).run();
    this.db.prepare(`UPDATE webhook_deliveries SET retry_at_ms = NULL WHERE state = 'pending' AND retry_at_ms IS NOT NULL`).run();
    return this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'failed', finished_at_ms = ?, duration_ms = ? - started_at_ms,
           error = 'Skein stopped during the call; a webhook call is not repeated (spec section 6).'
         WHERE state = 'sending'`,
      )
      .run(now, now).changes;
  }

  /**
   * Claims and sends what is due, up to the in-flight limit. Never throws (see the class). Its
   * writes never wait for another connection's write lock (`skein import`) on the server's thread:
   * refused, they are tried again WRITE_RETRY_MS later (store/when-write-free.ts says why).
   */
  kick(): void {
    if (!this.db.open) return;
    this.guard('record webhook deliveries', () => {
      for (const [id, write] of this.owed) {
        if (writeIfFree(this.db, write) === LOCK_TAKEN) return this.retry.soon();
        this.owed.delete(id);
      }
      const baseUrl = listenerBaseUrl(this.db);
      // Read first, so a poll with nothing due never asks for the write lock.
      while (baseUrl && this.inFlight.size < this.maxInFlight && this.due()) {
        const claimed = writeIfFree(this.db, () => this.claim(baseUrl));
        if (claimed === LOCK_TAKEN) return this.retry.soon();
        if (!claimed) return;
        const p: Promise<void> = this.send(claimed)
          .catch((err: unknown) => void this.say('send webhooks', err))
          .finally(() => {
            this.inFlight.delete(p);
            this.kick();
          });
        this.inFlight.add(p);
      }
    });
  }

  /** Resolves once nothing is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private due(): boolean {
    return prep(this.db, `SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND (retry_at_ms IS NULL OR retry_at_ms <= ?) LIMIT 1`).get(this.clock.nowMs()) !== undefined;
  }

  private claim(baseUrl: string): Claimed | undefined {
    return this.db.transaction(() => {
      const row = this.db
        .prepare(
          `SELECT d.id, d.job_id, d.url, d.created_at_ms, u.webhook_secret, u.webhook_secret_ref
           FROM webhook_deliveries d JOIN api_users u ON u.id = d.user_id
           WHERE d.state = 'pending' AND (d.retry_at_ms IS NULL OR d.retry_at_ms <= ?) ORDER BY d.id LIMIT 1`,
        )
        .get(this.clock.nowMs()) as (Omit<Claimed, 'body'> & { job_id: number }) | undefined;
      if (!row) return undefined;
      const job = getJob(this.db, row.job_id)!;
      const body = JSON.stringify({ event: 'job_finished', data: jobStatusBody(job, baseUrl) });
      this.db.prepare(`UPDATE webhook_deliveries SET state = 'sending', body_json = ? WHERE id = ?`).run(body, row.id);
      return { id: row.id, url: row.url, body, created_at_ms: row.created_at_ms, webhook_secret: row.webhook_secret, webhook_secret_ref: row.webhook_secret_ref };
    }).immediate();
  }

  private async send(d: Claimed): Promise<void> {
    const secret = await readSecret(this.keychain, d);
    if (!secret.ok) {
      this.record(d.id, () => this.postpone(d, secret.why));
      return;
    }
    const startedMs = this.clock.nowMs();
    // From here the call counts as made: a crash after this write never repeats it (spec 6). Not
    // written, no call is made, and the row goes back to the queue once SQLite writes again.
    const started = () => this.db.prepare(`UPDATE webhook_deliveries SET started_at_ms = ?, retry_at_ms = NULL, error = NULL WHERE id = ?`).run(startedMs, d.id);
    if (!this.record(d.id, started, () => this.unclaim(d.id))) return;
    // Duration is a measurement of the call, not a logical time: performance.now, not the clock.
    const t0 = performance.now();
    const outcome = await deliverWebhook(d.url, d.body, { timeoutMs: this.timeoutMs, secret: secret.secret, nowMs: startedMs });
    const durationMs = Math.round(performance.now() - t0);
    const finishedMs = this.clock.nowMs();
    this.record(d.id, () => this.finish(d.id, outcome, finishedMs, durationMs));
  }

  private finish(id: number, outcome: DeliveryOutcome, finishedMs: number, durationMs: number): void {
    this.db
      .prepare(`UPDATE webhook_deliveries SET state = ?, http_status = ?, error = ?, finished_at_ms = ?, duration_ms = ? WHERE id = ?`)
      .run(outcome.ok ? 'delivered' : 'failed', outcome.httpStatus, outcome.error, finishedMs, durationMs, id);
  }

  /** Not sent, since it could not be signed: pending again with the reason, or failed after a day. */
  private postpone(d: Claimed, why: string): void {
    const now = this.clock.nowMs();
    if (now - d.created_at_ms >= SECRET_GIVE_UP_MS) {
      this.db
        .prepare(`UPDATE webhook_deliveries SET state = 'failed', error = ?, finished_at_ms = ?, retry_at_ms = NULL WHERE id = ?`)
        .run(`Not sent: ${why}. Tried every minute for 24 h; a webhook is never sent unsigned.`, now, d.id);
      return;
    }
    this.db
      .prepare(`UPDATE webhook_deliveries SET state = 'pending', body_json = NULL, error = ?, retry_at_ms = ? WHERE id = ?`)
      .run(`Not sent yet: ${why}. Tried again every minute for 24 h; a webhook is never sent unsigned.`, now + SECRET_RETRY_MS, d.id);
  }

  /** A claimed row whose start could not be recorded: back to the queue, never called. */
  private unclaim(id: number): void {
    this.db.prepare(`UPDATE webhook_deliveries SET state = 'pending', body_json = NULL WHERE id = ? AND state = 'sending' AND started_at_ms IS NULL`).run(id);
  }

  /**
   * Runs a write now; refused, it is said once, and `retry` (default: the same write) is owed and
   * tried again at every kick (soon, when only the lock was taken: that is not said). Answers
   * whether the write was made now.
   */
  private record(id: number, write: () => unknown, retry: () => unknown = write): boolean {
    if (!this.db.open) return false;
    const done = this.guard('record webhook deliveries', () => writeIfFree(this.db, () => (write(), true)));
    if (done === true) return true;
    this.owed.set(id, () => void retry());
    if (done === LOCK_TAKEN) this.retry.soon();
    return false;
  }

  /** A step that SQLite may refuse: said once per kind (until it works again), never thrown. */
  private guard<T>(what: string, step: () => T): T | undefined {
    try {
      const value = step();
      this.said.delete(what);
      return value;
    } catch (err) {
      this.say(what, err);
      return undefined;
    }
  }

  private say(what: string, err: unknown): undefined {
    if (!this.said.has(what)) this.log(`Skein: cannot ${what} (${(err as Error)?.message ?? String(err)}); trying again every poll.`);
    this.said.add(what);
    return undefined;
  }
}
