import { inWriteTx } from '../../ledger/tx';
import type { Db } from '../../store/db';
import { holdJobCredits } from '../billing';
import type { JobKind } from '../job-row';
import { MAX_ATTEMPTS } from '../limits';
import type { JobOutput, JobParams } from '../params';

export interface NewJob {
  userId: number;
  kind: JobKind;
  params: JobParams;
  output: JobOutput;
  /** The most rows the job can write, and so the credits it holds. */
  maxRows: number;
  nowMs: number;
}

/**
 * The job's validated parameters, with its csv_dialect when it writes CSV and its gexf_dynamic
 * when it writes a time-sliced GEXF file: output_format and compress have columns of their own
 * (migration 030); these live in this JSON instead (params.ts csvDialectOf, gexfSliceOf), so that
 * they need no schema change.
 */
function paramsJson(job: NewJob): string {
  const { csv_dialect, gexf_dynamic } = job.output;
  return JSON.stringify({ ...job.params, ...(csv_dialect ? { csv_dialect } : {}), ...(gexf_dynamic ? { gexf_dynamic } : {}) });
}

/**
 * pending <- (nothing). The job row and its credit hold are one transaction: a job never exists
 * without its hold, and a refused hold (402) leaves no job behind.
 */
export function createJob(db: Db, job: NewJob): number {
  return inWriteTx(db, () => {
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO jobs (user_id, kind, params_json, output_format, compress, max_attempts, run_at_ms,
           progress_total, held_credits, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(job.userId, job.kind, paramsJson(job), job.output.output_format, job.output.compress ? 1 : 0,
        MAX_ATTEMPTS, job.nowMs, job.maxRows, job.maxRows, job.nowMs, job.nowMs);
    const jobId = Number(lastInsertRowid);
    holdJobCredits(db, job.userId, jobId, job.maxRows, job.nowMs);
    return jobId;
  });
}
