import Database from 'better-sqlite3';
import { accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Clock, systemClock } from '../clock';
import { dbFileOf } from '../engine';
import { cryptoIds, type IdSource } from '../ids';
import { checkSinceCheckpoint } from '../ledger';
import { openDb } from '../store/db';
import { migrate, MigrationError } from '../store/migrate';
import { makeDataDirPrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-dir';
import { exportsCopyDirOf } from './backup';
import { countsOf, exportRefsOf, hasSchemaMigrations, type DbCounts, type ExportRef } from './contents';
import { fsyncDir, fsyncFile, stampOf } from './durable';
import { asBackupError, BackupError, fsMessage, oneLine } from './errors';
import { databaseInUse } from './in-use';
import { quickCheck } from './inspect';
import { placeExports, type ExportsPlacement } from './restore-exports';
import { bringJournals, moveJournalsAside } from './restore-journals';
import { checkSqliteFile } from './sqlite-file';

// `skein restore FILE`: FILE is checked as a file (sqlite-file.ts), copied into the data dir under
// a temporary name, and the copy is checked by SQLite (every page), as Skein's (schema_migrations,
// no migration newer than this build), brought up to date by the migrations, and its ledger checked
// as a start would. Until then nothing in the data dir has changed but that temporary file, which
// goes on any failure. Then, with nothing holding the database open, the current database is moved
// into before-restore-<time>/ and the copy renamed to skein.db. Export files: restore-exports.ts.

export interface RestoreOptions {
  dataDir: string;
  fromFile: string;
  force?: boolean;
  clock?: Clock;
  ids?: IdSource;
}

export interface RestoreReport {
  from: string;
  database: string;
  counts: DbCounts;
  migrations_applied: number[];
  /** The folder the replaced database (and files only it refers to) was moved into; null when nothing was. */
  kept_aside: string | null;
  /** FILE.exports/ when it was there. */
  copies_from: string | null;
  exports: ExportsPlacement;
  /** The replaced database's metering journals (charges not yet in its ledger), moved to kept_aside/metering/. */
  journals_kept_aside: number;
  /** Journals that came with FILE (a skein.db with a metering/ folder beside it), posted at the next start. */
  journals_restored: number;
}

const JOURNALS = ['', '-wal', '-shm'] as const;

/** before-restore-<UTC time>, with -2, -3... if two restores fall in the same second. */
function asideDirOf(dataDir: string, nowMs: number): string {
  const base = join(dataDir, `before-restore-${stampOf(nowMs)}`);
  let dir = base;
  for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`;
  return dir;
}

const inUse = (dbFile: string): BackupError =>
  new BackupError(
    `${dbFile} is open in a running Skein (skein serve, the app, or another skein command): stop it first (Ctrl+C where 'skein serve' runs, or quit the app). Nothing was changed.`,
  );

const isSameFile = (a: string, b: string): boolean => {
  const sa = statSync(a, { throwIfNoEntry: false });
  const sb = statSync(b, { throwIfNoEntry: false });
  return !!sa && !!sb && sa.dev === sb.dev && sa.ino === sb.ino;
};

function checkDataDir(dataDir: string): void {
  const st = statSync(dataDir, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new BackupError(`the data dir ${dataDir} is a file, not a folder.`);
  if (!st) return;
  try {
    accessSync(dataDir, constants.W_OK);
  } catch (err) {
    throw new BackupError(fsMessage(err, dataDir, 'write in the data dir'));
  }
}

interface Prepared {
  counts: DbCounts;
  refs: ExportRef[];
  applied: number[];
}

/** Every check on the temporary copy, then the migrations; the copy is left in WAL mode, closed. */
function prepareCopy(tmp: string, from: string): Prepared {
  let db;
  try {
    db = openDb(tmp);
  } catch (err) {
    throw new BackupError(`${from} is not a readable SQLite database (${oneLine(err)}).`);
  }
  try {
    let check: string;
    try {
      check = quickCheck(db);
    } catch (err) {
      throw new BackupError(`${from} is damaged: SQLite cannot read it (${oneLine(err)}).`);
    }
    if (check !== 'ok') throw new BackupError(`${from} is damaged: SQLite's quick_check found "${check}".`);
    if (!hasSchemaMigrations(db)) throw new BackupError(`${from} is a SQLite database but not Skein's (it has no schema_migrations table).`);
    let applied: number[];
    try {
      applied = migrate(db).applied;
    } catch (err) {
      if (err instanceof MigrationError) throw new BackupError(`${from} cannot be restored by this version of Skein: ${err.message}`);
      throw asBackupError(err, (m) => `${from} could not be brought up to date: ${m}`);
    }
    // What the next start would refuse (ledger/start.ts), said now. A hold whose job has ended is
    // not a fault here: the start releases it.
    const faults = checkSinceCheckpoint(db).violations.filter((v) => v.rule !== 'open_hold_without_running_job');
    if (faults.length) throw new BackupError(`${from} holds a ledger that does not add up (${faults[0]!.rule}: ${faults[0]!.detail}); a start would refuse it.`);
    return { counts: countsOf(db), refs: exportRefsOf(db), applied };
  } finally {
    db.close();
  }
}

/** The replaced database's export references, or null when it cannot be read (it is damaged). */
function refsOfReplaced(dbFile: string): ExportRef[] | null {
  try {
    // Read-write but query_only: a read-only connection that closes last leaves -wal/-shm behind.
    const db = new Database(dbFile, { fileMustExist: true, timeout: 0 });
    try {
      db.pragma('query_only = ON');
      return exportRefsOf(db);
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

function removeTemp(tmp: string): void {
  for (const j of JOURNALS) rmSync(`${tmp}${j}`, { force: true });
}

export function restoreDataDir(options: RestoreOptions): RestoreReport {
  const clock = options.clock ?? systemClock;
  const from = resolve(options.fromFile);
  const dataDir = resolve(options.dataDir);
  const dbFile = dbFileOf(dataDir);
  checkSqliteFile(from);
  if (isSameFile(from, dbFile)) throw new BackupError(`${from} is the data dir's own database: name a backup file.`);
  checkDataDir(dataDir);
  const hasCurrent = JOURNALS.some((j) => existsSync(`${dbFile}${j}`));
  if (hasCurrent && databaseInUse(dbFile)) throw inUse(dbFile);
  const asideDir = asideDirOf(dataDir, clock.nowMs());
  if (existsSync(dbFile) && options.force !== true) {
    throw new BackupError(`${dataDir} already has a database: add --force to replace it with ${from}; the current one will be kept in ${asideDir}/.`);
  }

  const created = !existsSync(dataDir);
  const tmp = join(dataDir, `skein.db.restoring-${(options.ids ?? cryptoIds).randomHex(4)}`);
  let prepared: Prepared;
  try {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    copyFileSync(from, tmp, constants.COPYFILE_EXCL);
    chmodSync(tmp, PRIVATE_FILE_MODE);
    // A live database copied by hand keeps its latest writes in its -wal: they come along.
    if ((statSync(`${from}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0) copyFileSync(`${from}-wal`, `${tmp}-wal`, constants.COPYFILE_EXCL);
    prepared = prepareCopy(tmp, from);
    fsyncFile(tmp);
  } catch (err) {
    removeTemp(tmp);
    if (created) rmSync(dataDir, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new BackupError(`${fsMessage(err, dataDir, 'write in the data dir')} Nothing was changed.`);
    throw asBackupError(err, (m) => `cannot restore ${from}: ${m}`);
  }

  // The swap. Checked again: a server may have started while the copy was checked.
  if (hasCurrent && databaseInUse(dbFile)) {
    removeTemp(tmp);
    throw inUse(dbFile);
  }
  const replacedRefs = existsSync(dbFile) ? refsOfReplaced(dbFile) : null;
  makeDataDirPrivate(dataDir);
  const moved: [string, string][] = [];
  let journalsKeptAside = 0;
  try {
    for (const j of JOURNALS) {
      if (!existsSync(`${dbFile}${j}`)) continue;
      mkdirSync(asideDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      renameSync(`${dbFile}${j}`, join(asideDir, `skein.db${j}`));
      moved.push([join(asideDir, `skein.db${j}`), `${dbFile}${j}`]);
    }
    const journalsAside = moveJournalsAside(dataDir, asideDir);
    if (journalsAside) {
      moved.push(journalsAside.move);
      journalsKeptAside = journalsAside.journals;
    }
    renameSync(tmp, dbFile);
  } catch (err) {
    for (const [now, was] of moved.reverse()) renameSync(now, was);
    removeTemp(tmp);
    throw new BackupError(`${fsMessage(err, dbFile, 'replace')} The current database was left in place.`);
  }
  fsyncDir(dataDir);
  let journalsRestored: number;
  try {
    journalsRestored = bringJournals(from, dataDir);
  } catch (err) {
    throw asBackupError(err, (m) => `restored the database from ${from}, but copying its metering journals stopped: ${m}`);
  }

  const copiesDir = exportsCopyDirOf(from);
  const hasCopies = statSync(copiesDir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  let exports: ExportsPlacement;
  try {
    exports = placeExports({
      dataDir,
      restored: prepared.refs,
      replaced: replacedRefs,
      copiesDir: hasCopies ? copiesDir : null,
      asideDir: join(asideDir, 'skein.db.exports'),
      partialAside: join(asideDir, 'partial'),
    });
  } catch (err) {
    throw asBackupError(err, (m) => `restored the database from ${from}, but placing its export files stopped: ${m}`);
  }
  return {
    from,
    database: dbFile,
    counts: prepared.counts,
    migrations_applied: prepared.applied,
    kept_aside: existsSync(asideDir) ? asideDir : null,
    copies_from: hasCopies ? copiesDir : null,
    exports,
    journals_kept_aside: journalsKeptAside,
    journals_restored: journalsRestored,
  };
}
