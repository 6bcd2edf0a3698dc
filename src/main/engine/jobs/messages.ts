import type { JobRow } from './job-row';
import type { RunOutcome } from './run-job';
import type { XlsxOptions } from './writers/xlsx';

// The contract between the runner (main thread) and a job worker thread.
export interface WorkerData {
  dataDir: string;
  nativeBinding?: string;
  batchRows?: number;
  xlsx?: XlsxOptions;
}

export type ToWorker = { type: 'run'; job: JobRow; workerId: string } | { type: 'stop' };

export type FromWorker =
  | { type: 'progress'; jobId: number; rows: number }
  | { type: 'done'; jobId: number; outcome: RunOutcome }
  | { type: 'crashed'; jobId: number; message: string };
