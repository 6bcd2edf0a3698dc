import type { Db } from './db';
import { withoutWaiting } from './without-waiting';

/** How soon a write refused by another connection's lock tries again. */
export const WRITE_RETRY_MS = 2;

/**
 * Runs `write`, a write transaction that begins with BEGIN IMMEDIATE (inWriteTx), once the write
 * lock is free, waiting for it off the event loop: each try starts without SQLite's busy timeout
 * and, refused (SQLITE_BUSY at its BEGIN, before anything is written), is tried again
 * WRITE_RETRY_MS later. Once the connection's busy timeout has passed, it waits inside SQLite as
 * before, and fails as before if it must.
 *
 * Why: on the server's thread a write that waits inside SQLite holds every other request with it.
 * `skein import` in its own process holds the lock ~270 ms per 1,000-record transaction, so a job
 * submitted during an import held the API, the app's pages included, that long. The metering's
 * group commit waits the same way (metering/group-commit.ts).
 */
export async function whenWriteFree<T>(db: Db, write: () => T): Promise<T> {
  const waitMs = db.pragma('busy_timeout', { simple: true }) as number;
  const startMs = performance.now();
  for (;;) {
    try {
      return withoutWaiting(db, write);
    } catch (err) {
      if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY') || db.inTransaction) throw err;
    }
    if (performance.now() - startMs >= waitMs) return write();
    await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
  }
}
