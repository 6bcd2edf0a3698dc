import { statSync } from 'node:fs';
import { SkeinError } from '../errors';
import type { Db } from '../store/db';
import { deleteExportFile, type DeletedExport } from './delete-file';
import { isDownloading } from './downloads';
import { LOCK_TAKEN, writeIfFree } from '../store/when-write-free';
import { dataFilePath } from './file-state';
import { DAY_MS, type RetentionPolicy, retentionPolicy } from './retention-policy';

// Applying the retention setting: which finished files it deletes, oldest first. Only files of
// jobs in 'success' are looked at: a pending or processing job has no data file yet (its rows are
// in exports/.partial, which this never touches), so a running job's output is never deleted.
// A file the server is sending right now is left for the next sweep.

export interface KeptFile {
  job_id: number;
  file_name: string;
  finished_ms: number;
  bytes: number;
}

/** The finished files still in the exports folder, newest first (index jobs_kept_files). */
export function keptFiles(db: Db, dataDir: string): KeptFile[] {
  const rows = db
    .prepare(
      `SELECT id, result_file, COALESCE(finished_at_ms, updated_at_ms) AS finished_ms FROM jobs
       WHERE status = 'success' AND result_file IS NOT NULL AND file_deleted_at_ms IS NULL
       ORDER BY finished_ms DESC, id DESC`,
    )
    .all() as { id: number; result_file: string; finished_ms: number }[];
  const files: KeptFile[] = [];
  for (const r of rows) {
    try {
      files.push({ job_id: r.id, file_name: r.result_file, finished_ms: r.finished_ms, bytes: statSync(dataFilePath(dataDir, r)).size });
    } catch {
      // Gone from the folder outside Skein: it takes no space, and the list shows it as missing.
    }
  }
  return files;
}

/**
 * What the policy deletes, oldest first. By days: every file finished before now - days. By size:
 * the newest files are kept while their total stays within the limit; the rest (the oldest) go.
 * The newest file is always kept, even when it alone is larger than the limit: a job that
 * finishes must not lose its file at once.
 */
export function dueFiles(kept: readonly KeptFile[], policy: RetentionPolicy, nowMs: number): KeptFile[] {
  if (policy.keep === 'days') return kept.filter((f) => f.finished_ms < nowMs - policy.days * DAY_MS).reverse();
  if (policy.keep === 'size') {
    let total = 0;
    const over = kept.findIndex((f, i) => (total += f.bytes) > policy.max_bytes && i > 0);
    return over < 0 ? [] : kept.slice(over).reverse();
  }
  return [];
}

/** Why a due file was left for the next sweep while another process (`skein import`) held the write lock. */
export const DATABASE_BUSY = 'the database was busy with another writer, such as `skein import`';

export interface RetentionRun {
  deleted: DeletedExport[];
  /** Due files left for the next sweep: being downloaded, or not deletable now. */
  skipped: { job_id: number; file_name: string; why: string }[];
}

/** One sweep: deletes what the saved policy (or `policy`) makes due, recording each as retention's. */
export function applyRetention(db: Db, dataDir: string, nowMs: number, policy: RetentionPolicy = retentionPolicy(db)): RetentionRun {
  const run: RetentionRun = { deleted: [], skipped: [] };
  for (const f of dueFiles(keptFiles(db, dataDir), policy, nowMs)) {
    if (isDownloading(db, f.job_id)) {
      run.skipped.push({ job_id: f.job_id, file_name: f.file_name, why: 'being downloaded' });
      continue;
    }
    try {
      // Never a wait for another process's write lock on the server's thread: the file is left for
      // the next sweep instead (store/when-write-free.ts says why).
      const deleted = writeIfFree(db, () => deleteExportFile(db, dataDir, f.job_id, 'retention', nowMs));
      if (deleted === LOCK_TAKEN) run.skipped.push({ job_id: f.job_id, file_name: f.file_name, why: DATABASE_BUSY });
      else run.deleted.push(deleted);
    } catch (err) {
      // Deleted in between (the analyst's Delete), or the OS refused: the next sweep looks again.
      if (!(err instanceof SkeinError)) throw err;
      run.skipped.push({ job_id: f.job_id, file_name: f.file_name, why: err.message });
    }
  }
  return run;
}
