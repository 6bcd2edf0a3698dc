// When the background WAL checkpointer (wal-checkpointer.ts) does more than a PASSIVE checkpoint.
//
// Every pass runs a PASSIVE checkpoint: it copies the frames no reader still needs into the
// database and never waits for or blocks anyone. Once every frame is copied, the next writer starts
// the WAL again from its beginning, so under ordinary load the WAL stays at about one pass's worth
// of writes. Commits landing while the PASSIVE copies (a steady load) would stop that, so a pass
// on a database written to since the last one follows with a RESTART that does not wait
// (wal-checkpointer-entry.ts). Two cases need a TRUNCATE, which copies what is left, waits for the readers of the
// WAL to finish and empties it, holding the write lock meanwhile:
// - a WAL past WAL_BOUND_BYTES. A writer that never pauses (`skein import` of a million records
//   next to the app) starts each transaction while the previous one's frames are still being
//   copied, so the WAL never starts again: measured, 1.4 GB after 1,000,000 records. TRUNCATE then
//   waits up to WAL_BOUND_WAIT_MS for the write lock (between two of the writer's transactions) and
//   for readers; a request's charge may wait that long behind it, once per bound's worth of writes.
// - an idle database (nothing committed since the previous pass) whose WAL file is larger than
//   WAL_IDLE_TRUNCATE_BYTES: a big import or export left a large file behind; it is given back,
//   without waiting for anyone (an attempt that would wait gives up at once).

/** Between passes. An import writes ~10-20 MB of WAL a second: one pass copies ~5 MB. */
export const WAL_PASS_EVERY_MS = 250;
/** Past this the checkpointer keeps trying to empty the WAL, however busy the database is. */
export const WAL_BOUND_BYTES = 64 * 1024 * 1024;
/** An idle database's WAL file larger than this is truncated (4 MiB: SQLite's own autocheckpoint size). */
export const WAL_IDLE_TRUNCATE_BYTES = 4 * 1024 * 1024;
/** How long a TRUNCATE past the bound waits for the write lock and for readers. */
export const WAL_BOUND_WAIT_MS = 50;

export interface WalLimits {
  boundBytes: number;
  idleTruncateBytes: number;
  boundWaitMs: number;
}

export const DEFAULT_WAL_LIMITS: WalLimits = { boundBytes: WAL_BOUND_BYTES, idleTruncateBytes: WAL_IDLE_TRUNCATE_BYTES, boundWaitMs: WAL_BOUND_WAIT_MS };

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

/** 'truncate' waiting up to `waitMs` for the write lock and readers (0: not at all), or nothing. */
export type WalAction = { kind: 'none' } | { kind: 'truncate'; waitMs: number };

export function afterPassive(seen: WalSeen, limits: WalLimits = DEFAULT_WAL_LIMITS): WalAction {
  // A frame is its page plus a 24-byte header.
  const walBytes = seen.walFrames * (seen.pageSize + 24);
  if (walBytes > limits.boundBytes) return { kind: 'truncate', waitMs: limits.boundWaitMs };
  if (seen.idle && seen.walFileBytes > limits.idleTruncateBytes) return { kind: 'truncate', waitMs: 0 };
  return { kind: 'none' };
}
