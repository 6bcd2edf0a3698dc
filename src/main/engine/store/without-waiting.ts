import type { Db } from './db';

/**
 * Runs fn with the connection's busy timeout at 0, then puts it back: a write lock another
 * connection holds fails fn at once (SQLITE_BUSY) instead of holding this thread in SQLite's busy
 * handler. For writes that may be skipped or done later: on the server's thread, a 5 s busy
 * timeout would hold every request with it (an import's transaction holds the lock ~270 ms).
 */
export function withoutWaiting<T>(db: Db, fn: () => T): T {
  const timeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return fn();
  } finally {
    if (db.open) db.pragma(`busy_timeout = ${timeoutMs}`);
  }
}
