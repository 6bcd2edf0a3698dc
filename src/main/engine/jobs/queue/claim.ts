import type { Db } from '../../store/db';
import type { JobRow } from '../job-row';

/**
 * pending -> processing. Takes the oldest runnable job and stamps the lock in one UPDATE, so two
 * runners (the app and `skein serve` on one data dir) can never both take it. attempts counts
 * claims, as in graphile-worker: a job that crashes its process again and again still ends.
 */
export function claimNextJob(db: Db, workerId: string, nowMs: number): JobRow | undefined {
  // all(), not get(): in autocommit an UPDATE ... RETURNING commits when the statement is reset,
  // and better-sqlite3's get() steps once and drops the reset's error. On a full disk (SQLITE_FULL
  // at the commit) get() returned the row of a claim that was rolled back: the runner ran a job it
  // did not hold, lost it at once, and claimed it again, at ~90% CPU (issue 13). all() steps to the
  // end, where the commit's error is thrown.
  return (db
    .prepare(
      `UPDATE jobs SET status = 'processing', attempts = attempts + 1, attempt_progress = 0, locked_at_ms = @now, locked_by = @worker,
         started_at_ms = coalesce(started_at_ms, @now), updated_at_ms = @now
       WHERE id = (SELECT id FROM jobs WHERE status = 'pending' AND run_at_ms <= @now ORDER BY run_at_ms, id LIMIT 1)
       RETURNING *`,
    )
    .all({ now: nowMs, worker: workerId }) as JobRow[])[0];
}
