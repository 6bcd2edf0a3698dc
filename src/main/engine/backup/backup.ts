import { accessSync, constants, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Clock, systemClock } from '../clock';
import { dbFileOf } from '../engine';
import { cryptoIds, type IdSource } from '../ids';
import type { DbCounts } from './contents';
import { fsyncDir, fsyncFile } from './durable';
import { asBackupError, BackupError, fsMessage } from './errors';
import { copyExportsInto, summarizeExports, type ExportsSummary } from './exports-copy';
import { inspectFile } from './inspect';
import { snapshotDb, type SnapshotProgress } from './snapshot';

// `skein backup --to FILE`: a consistent copy of the live database (snapshot.ts), written under a
// temporary name beside FILE, checked page by page, synced, and only then renamed to FILE. Export
// files are referred to by the database, not copied, unless asked: --with-exports copies them
// into FILE.exports/ beside it (exports-copy.ts).

export interface BackupOptions {
  dataDir: string;
  toFile: string;
  force?: boolean;
  withExports?: boolean;
  clock?: Clock;
  ids?: IdSource;
  onProgress?: SnapshotProgress;
}

export interface BackupReport {
  file: string;
  bytes: number;
  page_size: number;
  pages: number;
  duration_ms: number;
  /** How often a write elsewhere made the copy start over (snapshot.ts). */
  restarts: number;
  quick_check: 'ok';
  counts: DbCounts;
  /** The export files the backup refers to, as they are in the data dir now. */
  exports: ExportsSummary & {
    /** FILE.exports when --with-exports, else null: the files were not copied. */
    copied_to: string | null;
    copied: number;
    copied_bytes: number;
  };
  /** FILE (and FILE.exports) existed and were replaced (--force). */
  replaced: boolean;
}

/** Where --with-exports puts the copies, and where restore looks for them. */
export const exportsCopyDirOf = (backupFile: string): string => `${backupFile}.exports`;

const isSameFile = (a: string, b: string): boolean => {
  const sa = statSync(a, { throwIfNoEntry: false });
  const sb = statSync(b, { throwIfNoEntry: false });
  return !!sa && !!sb && sa.dev === sb.dev && sa.ino === sb.ino;
};

/** Refuses a FILE that cannot or must not be written; true when it replaces one (--force). */
function checkTarget(target: string, copiesDir: string, dbFile: string, force: boolean): boolean {
  const dir = dirname(target);
  const dirStat = statSync(dir, { throwIfNoEntry: false });
  if (!dirStat) throw new BackupError(`the folder ${dir} does not exist.`);
  if (!dirStat.isDirectory()) throw new BackupError(`${dir} is not a folder.`);
  const existing = statSync(target, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new BackupError(`${target} is a folder: name the backup file, e.g. ${join(target, 'skein-backup.db')}.`);
  if (existing && isSameFile(target, dbFile)) throw new BackupError(`${target} is the data dir's own database: name another file.`);
  if (existing && !force) throw new BackupError(`${target} exists: add --force to replace it.`);
  // Restore takes FILE.exports for this backup's exports: a stale one must not stay beside it.
  const copies = existsSync(copiesDir);
  if (copies && !force) throw new BackupError(`${copiesDir} exists (exports copied by an earlier backup): add --force to replace it along with ${target}.`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new BackupError(fsMessage(err, dir, 'write in'));
  }
  return !!existing || copies;
}

export async function backupDataDir(options: BackupOptions): Promise<BackupReport> {
  const clock = options.clock ?? systemClock;
  const dataDir = options.dataDir;
  const target = resolve(options.toFile);
  const copiesDir = exportsCopyDirOf(target);
  const replaced = checkTarget(target, copiesDir, dbFileOf(dataDir), options.force === true);
  const suffix = (options.ids ?? cryptoIds).randomHex(4);
  const tmp = `${target}.tmp-${suffix}`;
  const tmpCopies = `${copiesDir}.tmp-${suffix}`;
  const oldCopies = `${copiesDir}.old-${suffix}`;
  try {
    const snap = await snapshotDb(dbFileOf(dataDir), tmp, clock, options.onProgress).catch((err: unknown) => {
      const code = (err as { code?: string }).code ?? '';
      if (['ENOSPC', 'SQLITE_FULL', 'EACCES', 'EPERM', 'EROFS', 'ENOENT', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'].includes(code)) throw new BackupError(fsMessage(err, target, 'write'));
      if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') throw new BackupError(`the database in ${dataDir} is damaged (${(err as Error).message}): run 'skein doctor'.`);
      throw asBackupError(err, (m) => `cannot back up to ${target}: ${m}`);
    });
    const seen = inspectFile(tmp);
    if (seen.quick_check !== 'ok') throw new BackupError(`the copy failed SQLite's check (${seen.quick_check}), so ${target} was not written: run 'skein doctor'.`);
    fsyncFile(tmp);
    const exports = summarizeExports(dataDir, seen.exports);
    const copied = options.withExports ? copyExportsInto(dataDir, seen.exports, tmpCopies) : null;
    // The database file is renamed last: until then FILE is the old backup (or nothing), whole.
    if (existsSync(copiesDir)) renameSync(copiesDir, oldCopies);
    try {
      if (copied) renameSync(tmpCopies, copiesDir);
      renameSync(tmp, target);
    } catch (err) {
      if (existsSync(oldCopies) && !existsSync(copiesDir)) renameSync(oldCopies, copiesDir);
      throw new BackupError(fsMessage(err, target, 'write'));
    }
    fsyncDir(dirname(target));
    rmSync(oldCopies, { recursive: true, force: true });
    return {
      file: target,
      bytes: statSync(target).size,
      page_size: snap.page_size,
      pages: seen.pages,
      duration_ms: snap.duration_ms,
      restarts: snap.restarts,
      quick_check: 'ok',
      counts: seen.counts,
      exports: {
        ...exports,
        copied_to: copied ? copiesDir : null,
        copied: copied?.present ?? 0,
        copied_bytes: copied?.bytes ?? 0,
      },
      replaced,
    };
  } catch (err) {
    throw asBackupError(err, (m) => `cannot back up to ${target}: ${m}`);
  } finally {
    for (const path of [tmp, `${tmp}-journal`, tmpCopies]) rmSync(path, { recursive: true, force: true });
  }
}
