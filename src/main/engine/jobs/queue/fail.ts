import { inWriteTx } from '../../ledger/tx';
import type { Db } from '../../store/db';
import { retryDelayMs } from '../limits';
import { finishJob } from './finish';

/**
 * processing -> pending (a transient fault with attempts left: retried after a backoff, resuming
 * from its checkpoint) or processing -> error (a permanent fault, or the last attempt).
 * Returns the state the job ended in; undefined when the lock was no longer ours.
 */
export function failJob(db: Db, jobId: number, workerId: string, message: string, permanent: boolean, nowMs: number): 'pending' | 'error' | undefined {
  return inWriteTx(db, () => {
    const job = db
      .prepare(`SELECT user_id, attempts, max_attempts FROM jobs WHERE id = ? AND status = 'processing' AND locked_by = ?`)
      .get(jobId, workerId) as { user_id: number; attempts: number; max_attempts: number } | undefined;
    if (!job) return undefined;
    const text = message.slice(0, 2000);
    if (!permanent && job.attempts < job.max_attempts) {
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
