import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exportsDir } from '../jobs/files';
import type { JobRow } from '../jobs/job-row';

// The state of a finished job's data file: kept in the exports folder, deleted by Skein (the
// analyst's Delete, or the retention setting: the job row and its charges stay, the file's URL
// answers 410), or missing (gone from the folder outside Skein).

export type FileState = 'kept' | 'deleted' | 'missing';
export type DeletedBy = 'user' | 'retention';

type FileFields = Pick<JobRow, 'id' | 'result_file' | 'file_deleted_at_ms' | 'file_deleted_by'> & Partial<Pick<JobRow, 'deleted_at_ms'>>;

export const utcTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

export function dataFilePath(dataDir: string, job: Pick<JobRow, 'result_file'>): string {
  return join(exportsDir(dataDir), job.result_file ?? '');
}

export function fileStateOf(dataDir: string, job: FileFields): FileState {
  if (typeof job.file_deleted_at_ms === 'number') return 'deleted';
  return job.result_file && existsSync(dataFilePath(dataDir, job)) ? 'kept' : 'missing';
}

const byWhom: Record<DeletedBy, string> = {
  user: 'in Skein (Exports > Delete)',
  retention: 'by the exports retention setting',
};

/** What a deleted file's URL (410) and the app say: when, by whom, and how to get the rows again. */
export function deletedMessage(job: FileFields): string {
  if (typeof job.deleted_at_ms === 'number') {
    return (
      `The data file of job ${job.id} (${job.result_file ?? 'no name'}) was deleted with its job on ${utcTime(job.deleted_at_ms)} ` +
      '(Jobs > Delete job, or DELETE /jobs/<id>); its charges stay in the ledger. Start a new job for a new file.'
    );
  }
  const when = typeof job.file_deleted_at_ms !== 'number' ? 'earlier' : `on ${utcTime(job.file_deleted_at_ms)}`;
  return (
    `The data file of job ${job.id} (${job.result_file ?? 'no name'}) was deleted ${when} ${byWhom[job.file_deleted_by ?? 'user']}; ` +
    'the job and its charges stay. Run the job again for a new file (Jobs > Retry in the app, or the same POST).'
  );
}
