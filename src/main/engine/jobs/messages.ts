import type { JobRow } from './job-row';
import type { RunOutcome } from './run-job';
import type { XlsxOptions } from './writers/xlsx';
import type { RunFault } from './unsettled';

// The contract between the runner (main thread) and a job worker thread.
export interface WorkerData {
  dataDir: string;
  nativeBinding?: string;
  batchRows?: number;
  xlsx?: XlsxOptions;
  /** The engine connection's wal_autocheckpoint: 0 while a WAL checkpointer runs (store/wal-checkpointer.ts). */
  walAutocheckpoint?: number;
}

/** `upstreamKey`: for a job that walks the upstream, the key the main thread read from the keychain (kept in memory only). */
export type ToWorker = { type: 'run'; job: JobRow; workerId: string; upstreamKey?: string | null } | { type: 'stop' };

export type FromWorker =
  | { type: 'progress'; jobId: number; rows: number }
  | { type: 'done'; jobId: number; outcome: RunOutcome }
  /** `settle`: how the run meant to end when SQLite refused to record it (a full disk; unsettled.ts). */
  | { type: 'crashed'; jobId: number; message: string; settle?: RunFault };
