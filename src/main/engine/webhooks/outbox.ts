import type { Db } from '../store/db';

/**
 * Puts a job_finished event in the outbox, in the caller's transaction (the one that ends the
 * job), when the job's user has a webhook URL. The URL is copied: changing it later does not
 * redirect an event already owed.
 */
export function enqueueWebhook(db: Db, jobId: number, userId: number, nowMs: number): void {
  db.prepare(
    `INSERT INTO webhook_deliveries (job_id, user_id, url, created_at_ms)
     SELECT ?, id, webhook_url, ? FROM api_users WHERE id = ? AND webhook_url IS NOT NULL AND webhook_url <> ''`,
  ).run(jobId, nowMs, userId);
}
