// When the background WAL checkpointer (wal-checkpointer.ts) does more than a PASSIVE checkpoint.
//
// Every pass runs a PASSIVE checkpoint: it copies the frames no reader still needs into the
// database and never waits for or blocks anyone. Once every frame is copied, the next writer starts
// the WAL again from its beginning, so under ordinary load the WAL stays at about one pass's worth
// of writes. Two cases need more, and both use TRUNCATE on a connection with no busy timeout, so
// an attempt that would wait for a reader or a writer gives up at once instead of stalling one:
// - a WAL past WAL_BOUND_BYTES: readers kept the WAL from starting again (each reader that began
//   before a checkpoint finished pins the frames it may read), so it grew. TRUNCATE is tried at every
//   pass until it gets through, between two readers.
// - an idle database (nothing committed since the previous pass) whose WAL file is larger than
//   WAL_IDLE_TRUNCATE_BYTES: a big import or export left a large file behind; it is given back.

/** Between passes. An import writes ~10-20 MB of WAL a second: one pass copies ~5 MB. */
export const WAL_PASS_EVERY_MS = 250;
/** Past this the checkpointer keeps trying to empty the WAL, however busy the database is. */
export const WAL_BOUND_BYTES = 64 * 1024 * 1024;
/** An idle database's WAL file larger than this is truncated (4 MiB: SQLite's own autocheckpoint size). */
export const WAL_IDLE_TRUNCATE_BYTES = 4 * 1024 * 1024;

export interface WalLimits {
  boundBytes: number;
  idleTruncateBytes: number;
}

export const DEFAULT_WAL_LIMITS: WalLimits = { boundBytes: WAL_BOUND_BYTES, idleTruncateBytes: WAL_IDLE_TRUNCATE_BYTES };

export interface WalSeen {
  /** Frames in the WAL after the PASSIVE checkpoint (its second column). */
  walFrames: number;
  /** Of those, copied into the database (its third column). */
  checkpointedFrames: number;
  pageSize: number;
  /** The -wal file's size: frames it held at its largest, including the ones already reused. */
  walFileBytes: number;
  /** Nothing was committed by another connection since the previous pass. */
  idle: boolean;
}

export type WalAction = 'none' | 'truncate';

export function afterPassive(seen: WalSeen, limits: WalLimits = DEFAULT_WAL_LIMITS): WalAction {
  // A frame is its page plus a 24-byte header.
  const walBytes = seen.walFrames * (seen.pageSize + 24);
  if (walBytes > limits.boundBytes) return 'truncate';
  if (seen.idle && seen.walFileBytes > limits.idleTruncateBytes) return 'truncate';
  return 'none';
}
