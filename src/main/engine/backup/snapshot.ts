import Database from 'better-sqlite3';
import { chmodSync, closeSync, openSync } from 'node:fs';
import type { Clock } from '../clock';
import { PRIVATE_FILE_MODE } from '../store/private-dir';

// A consistent copy of a live database with SQLite's online backup API (sqlite3_backup_step),
// while the server or the app keeps reading and writing it. Each step copies a run of pages inside
// one read transaction; a write by another connection between steps makes the next step start the
// copy over (SQLite's rule), so the copy is always one moment's database. Under a busy writer
// that could go on forever: after MAX_RESTARTS the rest is copied in one step, one read snapshot
// (WAL: the writer goes on meanwhile; only the WAL's checkpoint waits for the copy).

/** 16,384 pages: 64 MiB at SQLite's 4 KiB pages, a few hundred ms a step here; progress each step. */
const PAGES_PER_STEP = 16_384;
const MAX_RESTARTS = 2;
/** The most better-sqlite3 passes to sqlite3_backup_step: everything left, in one step. */
const ALL_PAGES = 0x7fff_ffff;

export interface SnapshotResult {
  pages: number;
  page_size: number;
  duration_ms: number;
  /** How often a write elsewhere made the copy start over. */
  restarts: number;
}

export type SnapshotProgress = (copiedPages: number, totalPages: number, pageSize: number) => void;

/**
 * Copies `dbFile` into `toFile`, a new private (0600) file, and leaves it a single self-contained
 * file (rollback journal, no -wal): a backup is one file to move, open or restore.
 */
export async function snapshotDb(dbFile: string, toFile: string, clock: Clock, onProgress?: SnapshotProgress): Promise<SnapshotResult> {
  // Opened read-write (a read-only connection that closes last leaves -wal/-shm behind) but
  // query_only: the backup never writes to the live database.
  const src = new Database(dbFile, { fileMustExist: true });
  try {
    src.pragma('busy_timeout = 5000');
    src.pragma('query_only = ON');
    const pageSize = src.pragma('page_size', { simple: true }) as number;
    // Created 0600 before SQLite writes into it: the copy is never readable by others, even briefly.
    closeSync(openSync(toFile, 'wx', PRIVATE_FILE_MODE));
    const started = clock.nowMs();
    let restarts = 0;
    let lastRemaining = Infinity;
    const done = await src.backup(toFile, {
      progress({ totalPages, remainingPages }) {
        if (remainingPages >= lastRemaining) restarts++;
        lastRemaining = remainingPages;
        onProgress?.(totalPages - remainingPages, totalPages, pageSize);
        return restarts >= MAX_RESTARTS ? ALL_PAGES : PAGES_PER_STEP;
      },
    });
    const duration_ms = clock.nowMs() - started;
    const dest = new Database(toFile, { fileMustExist: true, timeout: 0 });
    try {
      dest.pragma('journal_mode = DELETE');
    } finally {
      dest.close();
    }
    chmodSync(toFile, PRIVATE_FILE_MODE);
    return { pages: done.totalPages, page_size: pageSize, duration_ms, restarts };
  } finally {
    src.close();
  }
}
