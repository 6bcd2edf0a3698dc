import type { Clock } from '../clock';
import { listenerBaseUrl } from '../jobs/base-url';
import { getJob } from '../jobs/job-row';
import { jobStatusBody } from '../jobs/status-body';
import type { Db } from '../store/db';
import { deliverWebhook, WEBHOOK_TIMEOUT_MS } from './deliver';

/** Deliveries in flight at once: a slow receiver never holds up the others or the runner. */
const MAX_IN_FLIGHT = 8;

export interface DispatcherOptions {
  timeoutMs?: number;
}

/**
 * Sends the outbox (webhook_deliveries, state 'pending') in the background. Each row is marked
 * 'sending' before its one attempt, then 'delivered' or 'failed' with the HTTP status, the error,
 * the time and the duration. Never retried (spec 6). Waits for the listener's address, since the
 * body carries the data file's URL.
 */
export class WebhookDispatcher {
  private inFlight = new Set<Promise<void>>();
  private readonly timeoutMs: number;

  constructor(private readonly db: Db, private readonly clock: Clock, options: DispatcherOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  }

  /** Deliveries left 'sending' by a process that stopped mid-call: failed, not repeated. */
  failInterrupted(): number {
    const now = this.clock.nowMs();
    return this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'failed', finished_at_ms = ?, duration_ms = ? - started_at_ms,
           error = 'Skein stopped during the call; a webhook call is not repeated (spec section 6).'
         WHERE state = 'sending'`,
      )
      .run(now, now).changes;
  }

  kick(): void {
    const baseUrl = listenerBaseUrl(this.db);
    if (!baseUrl || !this.db.open) return;
    while (this.inFlight.size < MAX_IN_FLIGHT) {
      const claimed = this.claim(baseUrl);
      if (!claimed) return;
      const p: Promise<void> = this.send(claimed).finally(() => {
        this.inFlight.delete(p);
        this.kick();
      });
      this.inFlight.add(p);
    }
  }

  /** Resolves once nothing is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private claim(baseUrl: string): { id: number; url: string; body: string; secret: string | null; startedMs: number } | undefined {
    return this.db.transaction(() => {
      const row = this.db
        .prepare(
          `SELECT d.id, d.job_id, d.url, u.webhook_secret AS secret FROM webhook_deliveries d JOIN api_users u ON u.id = d.user_id
           WHERE d.state = 'pending' ORDER BY d.id LIMIT 1`,
        )
        .get() as { id: number; job_id: number; url: string; secret: string | null } | undefined;
      if (!row) return undefined;
      const job = getJob(this.db, row.job_id)!;
      const body = JSON.stringify({ event: 'job_finished', data: jobStatusBody(job, baseUrl) });
      const startedMs = this.clock.nowMs();
      this.db.prepare(`UPDATE webhook_deliveries SET state = 'sending', body_json = ?, started_at_ms = ? WHERE id = ?`).run(body, startedMs, row.id);
      return { id: row.id, url: row.url, body, secret: row.secret, startedMs };
    }).immediate();
  }

  private async send(d: { id: number; url: string; body: string; secret: string | null; startedMs: number }): Promise<void> {
    // Duration is a measurement of the call, not a logical time: performance.now, not the clock.
    const t0 = performance.now();
    const outcome = await deliverWebhook(d.url, d.body, { timeoutMs: this.timeoutMs, secret: d.secret, nowMs: d.startedMs });
    const now = this.clock.nowMs();
    try {
      this.db
        .prepare(`UPDATE webhook_deliveries SET state = ?, http_status = ?, error = ?, finished_at_ms = ?, duration_ms = ? WHERE id = ?`)
        .run(outcome.ok ? 'delivered' : 'failed', outcome.httpStatus, outcome.error, now, Math.round(performance.now() - t0), d.id);
    } catch {
      // The database closed under us (shutdown): the row stays 'sending' and is marked failed at the next start.
    }
  }
}
