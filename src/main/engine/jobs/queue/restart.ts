import { existsSync } from 'node:fs';
import { inWriteTx } from '../../ledger/tx';
import type { Db } from '../../store/db';
import { stagedPath } from '../files';
import { getJob, JobStateError, type JobRow } from '../job-row';

/**
 * A job whose staged file is gone (the analyst removed it in Exports to free a full disk, or
 * deleted it by hand) collects again from row 0: checkpoint, progress and phase are reset, the
 * upstream walk (its posts are in the corpus) and the charges are kept. commitBatch charges only
 * rows past charged_credits, so the rows collected again are not paid twice; a job that collects
 * more rows than before pays for the new ones only. A waiting job runs at once: the space its file
 * held is free now. Its recorded posts (job_posts) go with its rows, and it records every row it
 * writes from now on, also when it was created before job_posts existed (records_posts = 1).
 * Applies to a pending job (nobody runs it), or to a processing one held by `lockedBy` (the runner
 * that found the file gone). False when the job is in neither state.
 */
export function restartCollect(db: Db, jobId: number, nowMs: number, lockedBy: string | null = null): boolean {
  const where = lockedBy === null ? `status = 'pending'` : `status = 'processing' AND locked_by = @lockedBy`;
  return inWriteTx(db, () => {
    const changed =
      db
        .prepare(
          `UPDATE jobs SET checkpoint_cursor = NULL, checkpoint_rows = 0, checkpoint_bytes = 0, progress = 0, phase = 'collect',
             records_posts = 1, run_at_ms = min(run_at_ms, @now), updated_at_ms = @now WHERE id = @jobId AND ${where}`,
        )
        .run({ jobId, now: nowMs, ...(lockedBy === null ? {} : { lockedBy }) }).changes === 1;
    if (changed) db.prepare('DELETE FROM job_posts WHERE job_id = ?').run(jobId);
    return changed;
  });
}

/**
 * The runner's check before it opens a job's staged file: a file that is gone while the checkpoint
 * counts bytes in it makes the job collect again from row 0 (above) instead of failing with
 * "truncated outside Skein". Returns the job as it is now.
 */
export function restartIfStagedGone(db: Db, dataDir: string, job: JobRow, workerId: string, nowMs: number): JobRow {
  if (job.checkpoint_bytes === 0 && job.phase === 'collect') return job;
  if (existsSync(stagedPath(dataDir, job))) return job;
  if (!restartCollect(db, job.id, nowMs, workerId)) throw new JobStateError(`job ${job.id}: lock lost before its restart from row 0`);
  return getJob(db, job.id)!;
}
