import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// The data dir holds the corpus, the exports, API key hashes and webhook secrets: another account
// on the same machine must not read it. The dir is 0700, which alone keeps every file in it out of
// reach; its files are 0600 as well, so a file copied or moved out keeps its privacy (issue 13).
// POSIX only: on Windows the data dir is under the user's profile, private by its ACL.
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** A bound on the entries looked at per start: a data dir of 100,000 exports takes ~100 ms. */
const MAX_ENTRIES = 100_000;

/**
 * Creates the data dir private, or makes an existing one private: every dir and file in it that
 * others could read or enter loses those bits. Returns the paths whose mode changed (the start
 * says so). Symlinks are not followed.
 */
export function makeDataDirPrivate(dataDir: string, options: { everyFile?: boolean } = {}): string[] {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (process.platform === 'win32') return [];
  // A start looks only at the dir itself when it is private already (one stat, not a walk of every
  // export): nobody else can enter it, whatever its files' modes. `skein doctor` walks every file.
  if (!options.everyFile && (lstatSync(dataDir).mode & 0o077) === 0) return [];
  const changed: string[] = [];
  let seen = 0;
  const visit = (path: string): void => {
    if (++seen > MAX_ENTRIES) return;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) {
      try {
        // The owner's bits stay (0644 -> 0600, 0755 -> 0700); the group's and others' go.
        chmodSync(path, st.mode & 0o700);
        changed.push(path);
      } catch {
        // Not ours to change (another owner): left as it is; the dir's own mode still guards it.
      }
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dataDir);
  return changed;
}

/**
 * New files and dirs this process creates are private from the start (umask 077). Only the main
 * thread may set it (worker threads share it), so a call from a worker changes nothing.
 */
export function privateUmask(): void {
  try {
    process.umask(0o077);
  } catch {
    // ERR_WORKER_UNSUPPORTED_OPERATION in a worker thread (tests run the CLI in one).
  }
}

/** The database and its journals, once SQLite has created them (it gives -wal and -shm the db's mode). */
export function makeDbFilesPrivate(dbFile: string): void {
  if (process.platform === 'win32') return;
  for (const path of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st && st.isFile() && (st.mode & 0o077) !== 0) chmodSync(path, st.mode & 0o700);
  }
}
