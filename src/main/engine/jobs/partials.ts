import { type Dirent, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from '../errors';
import { inWriteTx } from '../ledger/tx';
import type { Db } from '../store/db';
import { partialNamesOf } from './finalize';
import { partialDir } from './files';
import { getJob, type JobRow } from './job-row';
import { notifyJobsChanged } from './notify';
import { restartCollect } from './queue/restart';

// The files in exports/.partial that no running job is using (issue 13), with what removing each
// does. A running job's staged file is in use and is not listed. What can be there:
// - a job waiting to run again (pending: paused by a full disk, or a retry's backoff): its staged
//   rows, kept so it resumes from its checkpoint. Removing it makes the job collect from row 0
//   again, paying nothing twice (queue/restart.ts).
// - a job that ended: cancelled while it waited (cancelJob has no data dir to clean), ended in
//   error by the start-up recovery (a crash on its last attempt, queue/recover.ts), or a success
//   whose process died between its commit and removeStaged; and anything removeStaged could not
//   delete. Nothing needs them.
// - a file of no job (a job deleted, a file copied in): nothing needs it either.

export type PartialState = 'waiting' | 'ended' | 'orphan';

export interface PartialFile {
  file_name: string;
  path: string;
  bytes: number;
  job_id: number | null;
  state: PartialState;
  /** The job's status and its last error (why it waits, or how it ended). */
  job_status: JobRow['status'] | null;
  job_message: string | null;
  /** True when a full disk paused the job (it waits for space). */
  disk_full: boolean;
}

const JOB_FILE = /^job(\d+)\./;

export function listPartials(db: Db, dataDir: string): PartialFile[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(partialDir(dataDir), { withFileTypes: true });
  } catch {
    return [];
  }
  const files: PartialFile[] = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(partialDir(dataDir), e.name);
    let bytes: number;
    try {
      bytes = statSync(path).size;
    } catch {
      continue; // removed since the listing
    }
    const id = JOB_FILE.exec(e.name)?.[1];
    const job = id === undefined ? undefined : getJob(db, Number(id));
    if (job?.status === 'processing') continue;
    files.push({
      file_name: e.name,
      path,
      bytes,
      job_id: job?.id ?? null,
      state: !job ? 'orphan' : job.status === 'pending' ? 'waiting' : 'ended',
      job_status: job?.status ?? null,
      job_message: job?.last_error ?? null,
      disk_full: job?.status === 'pending' && job.disk_full_since_ms !== null,
    });
  }
  return files.sort((a, b) => b.bytes - a.bytes || a.file_name.localeCompare(b.file_name));
}

export interface RemovedPartial {
  removed: string[];
  freed_bytes: number;
  /** The waiting job that now collects again from row 0, or null. */
  restarted_job: number | null;
}

function removeFiles(dataDir: string, names: readonly string[]): { removed: string[]; freed: number } {
  const removed: string[] = [];
  let freed = 0;
  for (const name of names) {
    const path = join(partialDir(dataDir), name);
    try {
      freed += statSync(path).size;
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // Already gone, or not removable (EPERM): the listing shows what is left.
    }
  }
  return { removed, freed };
}

/**
 * Removes one listed file. For a waiting job, every file of it goes and the job collects again from
 * row 0, in one write transaction that holds SQLite's write lock, so no runner claims the job in
 * between. The files go first: on a full disk the job's UPDATE needs the space they free.
 */
export function removePartial(db: Db, dataDir: string, fileName: string, nowMs: number): RemovedPartial {
  const listed = listPartials(db, dataDir).find((f) => f.file_name === fileName);
  if (!listed) throw fail.notFound(`No unfinished file named '${fileName}' that a stopped job left in ${partialDir(dataDir)}.`);
  if (listed.state !== 'waiting' || listed.job_id === null) {
    const { removed, freed } = removeFiles(dataDir, [fileName]);
    return { removed, freed_bytes: freed, restarted_job: null };
  }
  const jobId = listed.job_id;
  const result = inWriteTx(db, () => {
    if (getJob(db, jobId)?.status !== 'pending') throw fail.conflict(`Job ${jobId} has just started running; its file is in use. Try again once it stops.`);
    const { removed, freed } = removeFiles(dataDir, partialNamesOf(dataDir, jobId));
    restartCollect(db, jobId, nowMs);
    return { removed, freed_bytes: freed, restarted_job: jobId };
  });
  notifyJobsChanged(db);
  return result;
}
