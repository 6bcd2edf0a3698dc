import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';

/**
 * True while another connection has the database open: a running `skein serve`, the desktop app,
 * one of its job workers or another skein command. Skein keeps its database in WAL mode, where
 * every connection that has read holds a SHARED lock on the file until it closes (an idle server
 * too). A connection in EXCLUSIVE locking mode must take an EXCLUSIVE lock to read a WAL database,
 * which no other holder allows: SQLITE_BUSY at once (timeout 0) means someone has it open. This is
 * the lock SQLite itself takes to know it is the last connection, so it sees every process and
 * every thread. A database that cannot be read at all (not a database) is not in use by Skein.
 */
export function databaseInUse(dbFile: string): boolean {
  if (!existsSync(dbFile)) return false;
  let db: Database.Database;
  try {
    db = new Database(dbFile, { fileMustExist: true, timeout: 0 });
  } catch {
    return false;
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; ROLLBACK');
    return false;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
  } finally {
    // The last connection to close checkpoints the WAL into the file and removes -wal and -shm.
    db.close();
  }
}
