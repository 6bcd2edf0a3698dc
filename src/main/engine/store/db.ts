import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

export interface OpenOptions {
  /**
   * Path of a better-sqlite3 binary built for the running runtime. Electron's ABI differs from
   * Node's, so the desktop shell passes the Electron build here; plain Node leaves it unset.
   */
  nativeBinding?: string;
  readonly?: boolean;
}

/**
 * Opens a corpus database: WAL so readers (API, workers, CLI while the app runs) never wait on
 * the one writer; foreign keys on; a 5 s busy timeout so a second process (the CLI next to a
 * running app) queues behind a write instead of failing with SQLITE_BUSY.
 */
export function openDb(file: string, options: OpenOptions = {}): Db {
  if (!options.readonly) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}
