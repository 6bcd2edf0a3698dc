import { fail } from '../errors';
import { removeDataFile } from '../exports/delete-file';
import { utcTime } from '../exports/file-state';
import { inWriteTx } from '../ledger/tx';
import type { Db } from '../store/db';
import { removeStaged } from './finalize';
import { getJob, type JobRow } from './job-row';

// Deleting a job (issue 15; our extension: the app's Jobs > Delete job, DELETE /jobs/<id>). The
// job leaves every list and its data file goes (as Exports > Delete does it), but its row stays as
// a tombstone (deleted_at_ms, migration 065): the ledger's transfers name the job by id
// (job:<id>:hold, job:<id>:rows:<offset>), and a removed row would let SQLite hand its id to the
// next job, whose transfers would then collide with these. So the ledger, `skein credits ledger`
// and `skein doctor` balance exactly as before the delete (docs/decisions.md "Jobs: deleting a job").

export interface DeletedJob {
  job_id: number;
  deleted_ms: number;
  /** The data file that went with it, or null (a job that ended in error, or whose file was deleted before). */
  file_name: string | null;
  /** Bytes freed in the exports folder: 0 when there was no file, or it was gone already. */
  bytes: number;
}

/** What GET /jobs/<id> (410) and the app say about a deleted job. */
export function deletedJobMessage(job: Pick<JobRow, 'id' | 'deleted_at_ms'>): string {
  return (
    `Job ${job.id} was deleted on ${utcTime(job.deleted_at_ms ?? 0)} (Jobs > Delete job in the app, or DELETE /jobs/${job.id}); ` +
    'its charges stay in the ledger.'
  );
}

/**
 * Deletes a finished job. A pending or processing job is refused (409): it holds credits and may
 * be writing its file, so it must be cancelled first and deleted once it has ended. One write
 * transaction (BEGIN IMMEDIATE: the runner cannot claim or finish the job in between); its
 * unfinished files in exports/.partial (what an ended job may leave) go after the commit.
 */
export function deleteJob(db: Db, dataDir: string, jobId: number, nowMs: number): DeletedJob {
  const { deleted, job } = inWriteTx(db, () => {
    const job = getJob(db, jobId);
    if (!job) throw fail.notFound(`Job ${jobId} was not found.`);
    if (job.deleted_at_ms !== null) throw fail.gone(deletedJobMessage(job));
    if (job.status === 'pending' || job.status === 'processing') {
      throw fail.conflict(`Job ${jobId} is still running (${job.status}): cancel it first, then delete it once it has ended.`);
    }
    let file_name: string | null = null;
    let bytes = 0;
    if (job.status === 'success' && job.result_file && job.file_deleted_at_ms === null) {
      ({ file_name, bytes } = removeDataFile(db, dataDir, job, 'user', nowMs));
    }
    db.prepare('UPDATE jobs SET deleted_at_ms = ?, updated_at_ms = ? WHERE id = ?').run(nowMs, nowMs, jobId);
    // The record of the posts it wrote (migration 066) only served its overview, which goes with it.
    db.prepare('DELETE FROM job_posts WHERE job_id = ?').run(jobId);
    return { deleted: { job_id: jobId, deleted_ms: nowMs, file_name, bytes }, job };
  });
  removeStaged(dataDir, job);
  return deleted;
}
