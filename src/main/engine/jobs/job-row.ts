import type { Db } from '../store/db';

/** timeline is our extension (issue 15; migration 064 widened the column's CHECK). */
export type JobKind = 'replies' | 'search' | 'timeline';
export type JobStatus = 'pending' | 'processing' | 'success' | 'error';
/** gexf and parquet are our extensions (issue 16; migration 062 widened the column's CHECK). */
export type OutputFormat = 'json' | 'csv' | 'xlsx' | 'gexf' | 'parquet';
export type JobPhase = 'collect' | 'finalize';

/** A row of the jobs table (migration 030, rebuilt by 062), numbers as JS numbers (none of them nears 2^53). */
export interface JobRow {
  id: number;
  user_id: number;
  kind: JobKind;
  params_json: string;
  output_format: OutputFormat;
  compress: number;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at_ms: number;
  locked_at_ms: number | null;
  locked_by: string | null;
  last_error: string | null;
  progress: number;
  progress_total: number | null;
  held_credits: number;
  charged_credits: number;
  cancel_requested: number;
  checkpoint_cursor: string | null;
  checkpoint_rows: number;
  checkpoint_bytes: number;
  phase: JobPhase;
  result_file: string | null;
  datafile_token: string | null;
  is_compressed: number | null;
  result_rows: number | null;
  result_bytes: number | null;
  created_at_ms: number;
  started_at_ms: number | null;
  finished_at_ms: number | null;
  updated_at_ms: number;
  /** When a full disk first refused this job's writes since its last committed batch (migration 056). */
  disk_full_since_ms: number | null;
  /** 1 once the current attempt committed a batch or an upstream page (migration 058; recover.ts). */
  attempt_progress: number;
  /** When the finished data file was deleted, and by whom (migration 060; exports/delete-file.ts); the job stays. */
  file_deleted_at_ms: number | null;
  file_deleted_by: 'user' | 'retention' | null;
  /** When the job was deleted (migration 065; jobs/delete-job.ts): a tombstone, its id and its ledger transfers stay. */
  deleted_at_ms: number | null;
  /** 1: every row the job writes is recorded in job_posts (migration 066); 0 for jobs created before it. */
  records_posts: number;
}

export function getJob(db: Db, jobId: number): JobRow | undefined {
  return db.prepare('SELECT * FROM jobs WHERE id = ?').get(jobId) as JobRow | undefined;
}

/** Thrown by a transition whose precondition no longer holds (the job moved on, or the lock is lost). */
export class JobStateError extends Error {
  override name = 'JobStateError';
}

/**
 * A fault outside Skein that time may cure (the upstream down): the job waits `pauseMs` without
 * using an attempt and resumes from its checkpoint; its message is shown as it is, not as an
 * internal error.
 */
export class TransientJobError extends Error {
  override name = 'TransientJobError';
  constructor(
    message: string,
    readonly pauseMs: number,
  ) {
    super(message);
  }
}

export const CANCELLED_MESSAGE = 'Cancelled by the user';
