import type { WalLimits } from './wal-policy';

// The contract between startWalCheckpointer (main thread) and its worker thread.
export interface WalWorkerData {
  dbFile: string;
  nativeBinding?: string;
  everyMs: number;
  limits: WalLimits;
}

/** What one pass did: the PASSIVE checkpoint's figures, and the TRUNCATE when one was tried. */
export interface WalPass {
  /** 1 when the PASSIVE checkpoint could not copy every frame (a reader still needs some). */
  busy: number;
  walFrames: number;
  checkpointedFrames: number;
  walFileBytes: number;
  truncated: 'no' | 'yes' | 'busy';
  /** After a PASSIVE that left frames, on a database written to since the previous pass: a RESTART without waiting. */
  restarted: 'no' | 'yes' | 'busy';
}

export type ToWalWorker = { type: 'pass'; id: number } | { type: 'stop' };
export type FromWalWorker = { type: 'pass'; id: number; pass: WalPass } | { type: 'ready' } | { type: 'failed'; message: string };
