import { rmSync, statSync } from 'node:fs';
import { fail } from '../errors';
import { getJob, type JobRow } from '../jobs/job-row';
import type { Db } from '../store/db';
import { dataFilePath, deletedMessage, type DeletedBy } from './file-state';

// Deleting one finished job's data file (issue 13 point 18): the file goes; the job row, its
// datafile token and every ledger transfer stay. The row records when and by whom, so the job
// still lists with its file's state and the file's URL can say 410 rather than a bare 404.

export interface DeletedExport {
  job_id: number;
  file_name: string;
  /** Bytes freed: 0 when the file was already gone from the folder. */
  bytes: number;
  deleted_ms: number;
  deleted_by: DeletedBy;
}

/**
 * One write transaction (BEGIN IMMEDIATE: no other writer moves the job in between). The file goes
 * before the UPDATE: on a full disk the UPDATE needs the space the file frees. Should the UPDATE
 * still fail, the file is gone and the job lists it as missing; a second Delete records it.
 */
export function deleteExportFile(db: Db, dataDir: string, jobId: number, by: DeletedBy, nowMs: number): DeletedExport {
  return db
    .transaction((): DeletedExport => {
      const job = getJob(db, jobId);
      if (!job) throw fail.notFound(`Job ${jobId} was not found.`);
      if (job.status === 'pending' || job.status === 'processing') {
        throw fail.conflict(`Job ${jobId} is still running (${job.status}): it has no data file until it finishes. Cancel it in Jobs if you do not want it.`);
      }
      if (job.status === 'error' || !job.result_file) throw fail.notFound(`Job ${jobId} ended in ${job.status} and has no data file.`);
      if (job.file_deleted_at_ms !== null) throw fail.gone(`Already deleted. ${deletedMessage(job)}`);
      return removeDataFile(db, dataDir, job, by, nowMs);
    })
    .immediate();
}

/**
 * The file of a finished job whose file is kept, removed and recorded as deleted: inside the
 * caller's write transaction (Exports > Delete above, and deleting the whole job, jobs/delete-job.ts).
 */
export function removeDataFile(db: Db, dataDir: string, job: JobRow, by: DeletedBy, nowMs: number): DeletedExport {
  const path = dataFilePath(dataDir, job);
  let bytes = 0;
  try {
    bytes = statSync(path).size;
    rmSync(path, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw fail.conflict(`Could not delete ${path} (${code ?? (err as Error).message}); the file and job ${job.id} stay as they were.`);
    bytes = 0; // gone from the folder already: only the record is made
  }
  db.prepare('UPDATE jobs SET file_deleted_at_ms = ?, file_deleted_by = ? WHERE id = ?').run(nowMs, by, job.id);
  return { job_id: job.id, file_name: job.result_file ?? '', bytes, deleted_ms: nowMs, deleted_by: by };
}
