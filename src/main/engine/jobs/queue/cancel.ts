import { inWriteTx } from '../../ledger/tx';
import type { Db } from '../../store/db';
import { CANCELLED_MESSAGE, type JobRow } from '../job-row';
import { finishJob } from './finish';

/**
 * Cancel (docs/decisions.md "Job states"): a pending job moves straight to error with the message
 * "Cancelled by the user"; a processing job gets cancel_requested and its runner stops at the next
 * batch boundary (processing -> error). A finished job is left as it is. Idempotent.
 */
export function cancelJob(db: Db, jobId: number, nowMs: number): JobRow['status'] {
  return inWriteTx(db, () => {
    const job = db.prepare('SELECT user_id, status FROM jobs WHERE id = ?').get(jobId) as Pick<JobRow, 'user_id' | 'status'> | undefined;
    if (!job) throw new Error(`job ${jobId} does not exist`);
    if (job.status === 'pending') {
      db.prepare(`UPDATE jobs SET status = 'error', last_error = ?, cancel_requested = 1 WHERE id = ?`).run(CANCELLED_MESSAGE, jobId);
      finishJob(db, jobId, job.user_id, nowMs);
      return 'error';
    }
    if (job.status === 'processing') {
      db.prepare('UPDATE jobs SET cancel_requested = 1, updated_at_ms = ? WHERE id = ?').run(nowMs, jobId);
    }
    return job.status;
  });
}

/** processing -> error, by the runner that noticed cancel_requested. */
export function endCancelled(db: Db, jobId: number, workerId: string, nowMs: number): void {
  inWriteTx(db, () => {
    const row = db
      .prepare(`UPDATE jobs SET status = 'error', last_error = ? WHERE id = ? AND status = 'processing' AND locked_by = ? RETURNING user_id`)
      .get(CANCELLED_MESSAGE, jobId, workerId) as { user_id: number } | undefined;
    if (row) finishJob(db, jobId, row.user_id, nowMs);
  });
}
