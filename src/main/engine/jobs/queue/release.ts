import type { Db } from '../../store/db';

/**
 * processing -> pending for the jobs a stopping runner holds (a graceful stop: app quit, SIGTERM).
 * The attempt is given back, since the job did not fail; it resumes from its checkpoint.
 */
export function releaseLocks(db: Db, runner: string, nowMs: number): number {
  return db
    .prepare(
      `UPDATE jobs SET status = 'pending', attempts = max(0, attempts - 1), locked_by = NULL, locked_at_ms = NULL,
         run_at_ms = ?, updated_at_ms = ?
       WHERE status = 'processing' AND substr(locked_by, 1, length(?) + 1) = ? || ':'`,
    )
    .run(nowMs, nowMs, runner, runner).changes;
}
