import Database from 'better-sqlite3';
import type { Db } from '../store/db';
import { countsOf, exportRefsOf, type DbCounts, type ExportRef } from './contents';

/** quick_check lists at most this many problems (as `skein doctor`). */
const MAX_CHECK_LINES = 20;

export interface Inspection {
  /** 'ok', or the first problem SQLite found. */
  quick_check: string;
  pages: number;
  counts: DbCounts;
  exports: ExportRef[];
}

/**
 * SQLite's quick_check of every page, then what the database holds. quick_check rather than
 * integrity_check: it reads every page and checks every b-tree, leaving out only the index-to-
 * table cross-check, in seconds rather than minutes on a million posts (decisions.md, doctor).
 */
export function inspectDb(db: Db): Inspection {
  const quick_check = quickCheck(db);
  const pages = db.pragma('page_count', { simple: true }) as number;
  if (quick_check !== 'ok') return { quick_check, pages, counts: countsOf(db), exports: [] };
  return { quick_check, pages, counts: countsOf(db), exports: exportRefsOf(db) };
}

/** inspectDb on a file opened read-only (a finished backup: its journal mode makes no side file). */
export function inspectFile(file: string): Inspection {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
  try {
    return inspectDb(db);
  } finally {
    db.close();
  }
}

/** 'ok', or the first problem quick_check found. */
export function quickCheck(db: Db): string {
  const lines = db.prepare(`PRAGMA quick_check(${MAX_CHECK_LINES})`).pluck().all() as string[];
  return lines.length === 1 && lines[0] === 'ok' ? 'ok' : (lines[0] ?? 'no answer');
}
