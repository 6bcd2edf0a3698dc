import { statSync } from 'node:fs';
import type { Db } from './db';
import { WAL_BOUND_BYTES } from './wal-policy';

/**
 * How long the bulk writer's TRUNCATE waits for readers and other writers. The app's reads and
 * charge groups take microseconds to milliseconds: measured beside a reader answering one point read
 * after another, the TRUNCATE took 3.5-14 ms. A reader that is never out of a read transaction (a
 * snapshot held for milliseconds, back to back) can keep it waiting for good, so it gives up.
 */
export const BULK_WAL_TRUNCATE_WAIT_MS = 100;

export type WalBoundOutcome = 'within' | 'emptied' | 'busy';

/**
 * For a bulk writer in a process of its own (`skein import` next to the app): after each of its
 * commits, a WAL file past WAL_BOUND_BYTES is emptied by the writer itself. The app's checkpointer
 * thread does not manage it: the app's readers, one request after another, so often hold a snapshot
 * when the importer's next transaction starts that the WAL never starts over, and the thread's
 * TRUNCATE waits at most 50 ms for a write lock the importer holds ~200 ms per batch: 955, 399, 559
 * and 698 MB after 1,000,000-record imports beside a busy API (bench "API p99 during an import"),
 * 174 MB at most with this.
 * Between two of its own transactions the importer holds no snapshot and waits for the others'
 * short ones to end. A TRUNCATE that still finds a reader gives up after
 * BULK_WAL_TRUNCATE_WAIT_MS and is not tried again until the WAL has grown by another bound, so
 * such a reader costs the import at most that wait per bound's worth of writes.
 */
export function walBoundAfterCommit(db: Db, dbFile: string, boundBytes = WAL_BOUND_BYTES): () => WalBoundOutcome {
  const walFile = `${dbFile}-wal`;
  let tryPastBytes = boundBytes;
  return () => {
    const size = statSync(walFile, { throwIfNoEntry: false })?.size ?? 0;
    if (size <= tryPastBytes) return 'within';
    const emptied = truncate(db);
    tryPastBytes = emptied ? boundBytes : size + boundBytes;
    return emptied ? 'emptied' : 'busy';
  };
}

/** Another connection's checkpoint (the app's checkpointer thread) held the lock: SQLite does not wait for it. */
const OTHER_CHECKPOINT = -1;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * A TRUNCATE waiting at most BULK_WAL_TRUNCATE_WAIT_MS in all. SQLite's busy handler waits for
 * readers and writers but not for another connection's checkpoint, which the app's checkpointer
 * thread runs every 250 ms (tens of milliseconds each on a large database); that one is waited for
 * here, a few milliseconds at a time.
 */
function truncate(db: Db): boolean {
  const timeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
  const deadline = performance.now() + BULK_WAL_TRUNCATE_WAIT_MS;
  try {
    for (;;) {
      db.pragma(`busy_timeout = ${Math.max(1, Math.ceil(deadline - performance.now()))}`);
      const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number }[];
      if (row?.busy === 0) return true;
      if (row?.log !== OTHER_CHECKPOINT || performance.now() >= deadline) return false;
      Atomics.wait(pause, 0, 0, 5);
    }
  } catch {
    return false; // a full disk, an I/O error: the import goes on, and this is tried again a bound later
  } finally {
    db.pragma(`busy_timeout = ${timeoutMs}`);
  }
}
