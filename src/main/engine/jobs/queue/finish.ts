import type { Db } from '../../store/db';
import { enqueueWebhook } from '../../webhooks/outbox';
import { releaseJobHold } from '../billing';

/**
 * What every move into a terminal state (success or error) also does, in the caller's
 * transaction: clear the lock, void the rest of the credit hold, and put the job_finished event in
 * the webhook outbox (spec 3 and 6) when the user has a webhook URL. A job that ends in error has
 * no file and no overview: the record of its rows goes (a cancelled million-row job would keep
 * about 18 MB of job_posts otherwise).
 */
export function finishJob(db: Db, jobId: number, userId: number, nowMs: number): void {
  db.prepare('UPDATE jobs SET locked_at_ms = NULL, locked_by = NULL, finished_at_ms = ?, updated_at_ms = ? WHERE id = ?').run(nowMs, nowMs, jobId);
  db.prepare(`DELETE FROM job_posts WHERE job_id = ? AND (SELECT status FROM jobs WHERE id = ?) = 'error'`).run(jobId, jobId);
  releaseJobHold(db, jobId, nowMs);
  enqueueWebhook(db, jobId, userId, nowMs);
}
