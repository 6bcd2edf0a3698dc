import type { Db } from '../../store/db';
import type { JobRow } from '../job-row';

/**
 * pending -> processing. Takes the oldest runnable job and stamps the lock in one UPDATE, so two
 * runners (the app and `skein serve` on one data dir) can never both take it. attempts counts
 * claims, as in graphile-worker: a job that crashes its process again and again still ends.
 */
export function claimNextJob(db: Db, workerId: string, nowMs: number): JobRow | undefined {
  return db
    .prepare(
      `UPDATE jobs SET status = 'processing', attempts = attempts + 1, locked_at_ms = @now, locked_by = @worker,
         started_at_ms = coalesce(started_at_ms, @now), updated_at_ms = @now
       WHERE id = (SELECT id FROM jobs WHERE status = 'pending' AND run_at_ms <= @now ORDER BY run_at_ms, id LIMIT 1)
       RETURNING *`,
    )
    .get({ now: nowMs, worker: workerId }) as JobRow | undefined;
}
