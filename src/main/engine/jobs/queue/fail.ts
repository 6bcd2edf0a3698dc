import { inWriteTx } from '../../ledger/tx';
import type { Db } from '../../store/db';
import { retryDelayMs } from '../limits';
import { finishJob } from './finish';

/**
 * How a fault ends a run: 'permanent' ends the job; 'retry' (a fault of Skein's, which may not
 * recur) uses one of its attempts; a pause (a fault outside Skein that time cures: the upstream
 * down) waits `pause_ms` and gives the attempt back, since the job itself did nothing wrong. The
 * caller bounds a pause (jobs/upstream/walk.ts: 24 h).
 */
export type FailHow = 'permanent' | 'retry' | { pause_ms: number };

/**
 * processing -> pending (a transient fault with attempts left, or a pause: retried later, resuming
 * from its checkpoint) or processing -> error (a permanent fault, or the last attempt).
 * Returns the state the job ended in; undefined when the lock was no longer ours.
 */
export function failJob(db: Db, jobId: number, workerId: string, message: string, how: FailHow, nowMs: number): 'pending' | 'error' | undefined {
  return inWriteTx(db, () => {
    const job = db
      .prepare(`SELECT user_id, attempts, max_attempts FROM jobs WHERE id = ? AND status = 'processing' AND locked_by = ?`)
      .get(jobId, workerId) as { user_id: number; attempts: number; max_attempts: number } | undefined;
    if (!job) return undefined;
    const text = message.slice(0, 2000);
    if (typeof how === 'object') {
      db.prepare(
        `UPDATE jobs SET status = 'pending', attempts = max(0, attempts - 1), last_error = ?, run_at_ms = ?, locked_at_ms = NULL, locked_by = NULL,
           updated_at_ms = ? WHERE id = ?`,
      ).run(text, nowMs + how.pause_ms, nowMs, jobId);
      return 'pending';
    }
    if (how === 'retry' && job.attempts < job.max_attempts) {
      db.prepare(
        `UPDATE jobs SET status = 'pending', last_error = ?, run_at_ms = ?, locked_at_ms = NULL, locked_by = NULL, updated_at_ms = ? WHERE id = ?`,
      ).run(text, nowMs + retryDelayMs(job.attempts), nowMs, jobId);
      return 'pending';
    }
    db.prepare(`UPDATE jobs SET status = 'error', last_error = ? WHERE id = ?`).run(text, jobId);
    finishJob(db, jobId, job.user_id, nowMs);
    return 'error';
  });
}
