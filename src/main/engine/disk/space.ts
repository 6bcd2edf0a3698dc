import { statfsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// A full disk, as the engine meets it (issue 13): Node's file writes fail with ENOSPC (EDQUOT when
// a quota is spent), SQLite's with SQLITE_FULL ("database or disk is full", better-sqlite3's
// SqliteError.code). Both are faults outside Skein that freeing space cures.

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** True for an error (or its cause) that says the disk or the user's quota is full. */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  }
  return false;
}

/** The path an fs error names, when it names one (writeSync's do not; open's and stream's often do). */
export function pathOfError(err: unknown): string | undefined {
  const path = (err as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : undefined;
}

export interface FreeSpace {
  /** Bytes an unprivileged process can still write there (statfs f_bavail). */
  freeBytes: number;
  /** The mount point holding the path: its highest ancestor on the same device. */
  mount: string;
}

/** The nearest existing ancestor of a path (the path itself when it exists). */
function existing(path: string): string {
  let p = resolve(path);
  for (;;) {
    try {
      statSync(p);
      return p;
    } catch {
      const up = dirname(p);
      if (up === p) return p;
      p = up;
    }
  }
}

/** Free space and mount point of the file system holding `path` (or its nearest existing ancestor). */
export function freeSpaceAt(path: string): FreeSpace {
  const at = existing(path);
  let freeBytes = 0;
  try {
    const fs = statfsSync(at);
    freeBytes = fs.bavail * fs.bsize;
  } catch {
    // statfs is missing on some platforms and file systems: report 0 rather than fail the report.
  }
  let mount = at;
  try {
    const dev = statSync(at).dev;
    for (let up = dirname(mount); up !== mount && statSync(up).dev === dev; up = dirname(mount)) mount = up;
  } catch {
    // An ancestor we may not stat: the mount is the last one we could.
  }
  return { freeBytes, mount };
}

const MB = 1024 * 1024;

/** "0.4 MB", "12 MB", "3,210 MB": a tenth below 10 MB, where a disk-full message's numbers live. */
export function mbText(bytes: number): string {
  const mb = bytes / MB;
  return mb < 10 ? `${(Math.floor(mb * 10) / 10).toFixed(1)} MB` : `${Math.round(mb).toLocaleString('en-US')} MB`;
}

/** Whole MB rounded up, at least 1: what a write "needs about". */
export function neededMbText(bytes: number): string {
  return `${Math.max(1, Math.ceil(bytes / MB)).toLocaleString('en-US')} MB`;
}
