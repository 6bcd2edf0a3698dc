import type { Db } from '../store/db';

export interface DeliveryRecord {
  id: number;
  job_id: number;
  url: string;
  state: 'pending' | 'sending' | 'delivered' | 'failed';
  http_status: number | null;
  error: string | null;
  created_at_ms: number;
  started_at_ms: number | null;
  finished_at_ms: number | null;
  duration_ms: number | null;
}

/** A user's webhook deliveries, newest first (the app's delivery log; `skein webhooks log`). */
export function listDeliveries(db: Db, userId: number, limit = 100): DeliveryRecord[] {
  return db
    .prepare(
      `SELECT id, job_id, url, state, http_status, error, created_at_ms, started_at_ms, finished_at_ms, duration_ms
       FROM webhook_deliveries WHERE user_id = ? ORDER BY id DESC LIMIT ?`,
    )
    .all(userId, Math.min(Math.max(1, limit), 1000)) as DeliveryRecord[];
}

export function deliveriesOfJob(db: Db, jobId: number): DeliveryRecord[] {
  return db.prepare('SELECT * FROM webhook_deliveries WHERE job_id = ? ORDER BY id').all(jobId) as DeliveryRecord[];
}
