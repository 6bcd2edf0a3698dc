import type { InboxEntry, JobStatus } from '../../../shared/contract';
import type { Engine } from '../engine';
import type { EventHub } from './event-hub';
import { toDelivery } from './settings';

// How often the tables are looked at while someone listens: twice a second is "live" for a
// progress bar, and each look is three indexed queries (well under a millisecond).
export const WATCH_INTERVAL_MS = 500;
const BATCH = 500;

interface JobState {
  status: JobStatus;
  progress: number;
}

/**
 * Turns changes in the store into the contract's events: job progress and ends, webhook
 * deliveries, inbox posts. It watches the tables rather than hooking the job runner, so it sees
 * work done by any process on the data dir (a worker thread, `skein` next to the app) alike.
 * It runs only while the hub has subscribers.
 */
export class StoreWatcher {
  private timer: ReturnType<typeof setInterval> | null = null;
  private jobs = new Map<number, JobState>();
  private jobsSinceMs = 0;
  private lastInboxId = 0;
  private lastDeliveryId = 0;
  private openDeliveries = new Set<number>();

  constructor(
    private readonly engine: Engine,
    private readonly hub: EventHub,
  ) {
    this.baseline();
  }

  start(intervalMs = WATCH_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.hub.size > 0) this.tick();
    }, intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private baseline(): void {
    const db = this.engine.db;
    try {
      for (const j of db.prepare('SELECT id, status, progress, updated_at_ms FROM jobs').all() as { id: number; status: JobStatus; progress: number; updated_at_ms: number }[]) {
        this.jobs.set(j.id, { status: j.status, progress: j.progress });
        this.jobsSinceMs = Math.max(this.jobsSinceMs, j.updated_at_ms);
      }
      this.lastInboxId = Number(db.prepare('SELECT COALESCE(MAX(id), 0) FROM webhook_inbox_messages').pluck().get());
      this.lastDeliveryId = Number(db.prepare('SELECT COALESCE(MAX(id), 0) FROM webhook_deliveries').pluck().get());
      for (const id of db.prepare("SELECT id FROM webhook_deliveries WHERE state IN ('pending','sending')").pluck().all() as number[]) this.openDeliveries.add(id);
    } catch {
      // Tables of a capability this build lacks: nothing to watch there.
    }
  }

  /** One look at the tables; public for tests, which call it instead of waiting for the timer. */
  tick(): void {
    if (!this.engine.db.open) return;
    this.tickJobs();
    this.tickDeliveries();
    this.tickInbox();
  }

  private tickJobs(): void {
    let rows: { id: number; status: JobStatus; progress: number; progress_total: number | null; last_error: string | null; cancel_requested: number; updated_at_ms: number }[];
    try {
      rows = this.engine.db
        .prepare('SELECT id, status, progress, progress_total, last_error, cancel_requested, updated_at_ms FROM jobs WHERE updated_at_ms >= ? ORDER BY updated_at_ms LIMIT ?')
        .all(this.jobsSinceMs, BATCH) as typeof rows;
    } catch {
      return;
    }
    for (const j of rows) {
      this.jobsSinceMs = Math.max(this.jobsSinceMs, j.updated_at_ms);
      const before = this.jobs.get(j.id);
      if (before && before.status === j.status && before.progress === j.progress) continue;
      this.jobs.set(j.id, { status: j.status, progress: j.progress });
      this.hub.emit('job.progress', { job_id: j.id, status: j.status, progress: j.progress, progress_total: j.progress_total });
      if ((j.status === 'success' || j.status === 'error') && before?.status !== j.status) {
        this.hub.emit('job.finished', {
          job_id: j.id,
          status: j.status,
          cancelled: j.status === 'error' && j.cancel_requested === 1,
          message: j.status === 'error' ? (j.last_error ?? 'The job failed.') : null,
        });
      }
    }
  }

  private tickDeliveries(): void {
    let rows: Parameters<typeof toDelivery>[0][] & { state: string }[];
    try {
      const open = [...this.openDeliveries].slice(0, BATCH);
      rows = this.engine.db
        .prepare(`SELECT * FROM webhook_deliveries WHERE id > ? ${open.length ? `OR id IN (${open.map(() => '?').join(',')})` : ''} ORDER BY id LIMIT ?`)
        .all(this.lastDeliveryId, ...open, BATCH) as typeof rows;
    } catch {
      return;
    }
    for (const r of rows) {
      this.lastDeliveryId = Math.max(this.lastDeliveryId, r.id);
      if (r.state === 'pending' || r.state === 'sending') {
        this.openDeliveries.add(r.id);
        continue;
      }
      this.openDeliveries.delete(r.id);
      this.hub.emit('webhook.delivery', toDelivery(r));
    }
  }

  private tickInbox(): void {
    let rows: { id: number; received_at_ms: number; body_text: string }[];
    try {
      rows = this.engine.db
        .prepare('SELECT id, received_at_ms, body_text FROM webhook_inbox_messages WHERE id > ? ORDER BY id LIMIT ?')
        .all(this.lastInboxId, BATCH) as typeof rows;
    } catch {
      return;
    }
    for (const r of rows) {
      this.lastInboxId = Math.max(this.lastInboxId, r.id);
      const entry: InboxEntry = { id: r.id, received_ms: r.received_at_ms, body: r.body_text };
      this.hub.emit('inbox.received', entry);
    }
  }
}
