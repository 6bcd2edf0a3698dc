import { inWriteTx } from '../../ledger/tx';
import type { Db } from '../../store/db';
import { JobStateError } from '../job-row';
import { finishJob } from './finish';

export interface JobResult {
  /** File name under <dataDir>/exports. */
  file: string;
  token: string;
  isCompressed: boolean;
  rows: number;
  bytes: number;
}

/** processing -> success, with the data file; the rest of the hold is voided, the webhook queued. */
export function completeJob(db: Db, jobId: number, workerId: string, result: JobResult, nowMs: number): void {
  inWriteTx(db, () => {
    const row = db
      .prepare(
        `UPDATE jobs SET status = 'success', result_file = ?, datafile_token = ?, is_compressed = ?, result_rows = ?,
           result_bytes = ?, last_error = NULL
         WHERE id = ? AND status = 'processing' AND locked_by = ? RETURNING user_id`,
      )
      .get(result.file, result.token, result.isCompressed ? 1 : 0, result.rows, result.bytes, jobId, workerId) as { user_id: number } | undefined;
    if (!row) throw new JobStateError(`job ${jobId}: lock lost before completion`);
    finishJob(db, jobId, row.user_id, nowMs);
  });
}
