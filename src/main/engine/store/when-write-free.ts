import { SkeinError } from '../errors';
import type { Db } from './db';
import { withoutWaiting } from './without-waiting';

/** How soon a write refused by another connection's lock tries again. */
export const WRITE_RETRY_MS = 2;

/**
 * A write that waited the whole busy timeout for another connection's lock: said as such, with
 * Retry-After, rather than as an internal error that sends the script's author looking for a bug.
 */
export const WRITE_LOCK_BUSY_MESSAGE =
  "Skein's database stayed busy with another writer (such as `skein import`) for the whole wait: the request was not done and nothing was charged. Retry in a few seconds.";
const RETRY_AFTER_S = 5;

const isBusy = (err: unknown): boolean => String((err as { code?: unknown } | null)?.code).startsWith('SQLITE_BUSY');

/** A SQLITE_BUSY failure as the client should see it (500 with WRITE_LOCK_BUSY_MESSAGE); any other error as it is. */
export function busyAsFailure(err: unknown): unknown {
  return isBusy(err) ? new SkeinError('internal', WRITE_LOCK_BUSY_MESSAGE, { 'Retry-After': String(RETRY_AFTER_S) }) : err;
}

/**
 * Runs `write`, one write transaction that begins with BEGIN IMMEDIATE (inWriteTx, `.immediate()`)
 * or one statement on its own, once the write lock is free, waiting for it off the event loop:
 * each try starts without SQLite's busy timeout and, refused (SQLITE_BUSY before anything is
 * written), is tried again WRITE_RETRY_MS later. Once the connection's busy timeout has passed, it waits inside SQLite as
 * before, and fails if it must (with WRITE_LOCK_BUSY_MESSAGE).
 *
 * Why: on the server's thread a write that waits inside SQLite holds every other request with it.
 * `skein import` in its own process holds the lock ~270 ms per 1,000-record transaction, so a job
 * submitted during an import (or a key made in the app, a webhook received) held the API, the
 * app's pages included, that long. The metering's group commit waits the same way
 * (metering/group-commit.ts).
 */
export async function whenWriteFree<T>(db: Db, write: () => T): Promise<T> {
  const waitMs = db.pragma('busy_timeout', { simple: true }) as number;
  const startMs = performance.now();
  for (;;) {
    try {
      return withoutWaiting(db, write);
    } catch (err) {
      if (!isBusy(err) || db.inTransaction) throw err;
    }
    if (performance.now() - startMs >= waitMs) {
      try {
        return write();
      } catch (err) {
        throw busyAsFailure(err);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
  }
}

/** What writeIfFree gives when another connection holds the write lock: nothing was written. */
export const LOCK_TAKEN: unique symbol = Symbol('the write lock is taken');

/**
 * Runs `write` (one write transaction, or one statement on its own) if the write lock is free now;
 * else gives LOCK_TAKEN at once, having written nothing. For the server's own background work that
 * simply tries again later (the job runner's claim, webhook deliveries): in SQLite's busy handler
 * it held every request with it. During `skein import` the runner's claim, every 500 ms, stopped
 * the whole server for up to 1.9 s at a time: the handler sleeps in steps of up to 100 ms and
 * missed the short gaps between the importer's transactions.
 */
export function writeIfFree<T>(db: Db, write: () => T): T | typeof LOCK_TAKEN {
  try {
    return withoutWaiting(db, write);
  } catch (err) {
    if (isBusy(err) && !db.inTransaction) return LOCK_TAKEN;
    throw err;
  }
}

/**
 * `fn` again WRITE_RETRY_MS from now, once however often soon() is called before it runs: the next
 * try of background work that found the lock taken (writeIfFree). Unref'd: it never keeps the
 * process alive. cancel() drops a pending try.
 */
export function retryTimer(fn: () => void): { soon(): void; cancel(): void } {
  let timer: NodeJS.Timeout | null = null;
  return {
    soon() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        fn();
      }, WRITE_RETRY_MS);
      timer.unref();
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
