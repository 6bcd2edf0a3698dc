import { closeSync, fsyncSync, openSync } from 'node:fs';

// A file is renamed into its final name only once its bytes are on disk, and the folder's entry
// is synced after the rename: a crash leaves either the old file or the whole new one under the
// name, never a half-written one.

export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** POSIX only: Windows cannot open a folder to sync it (NTFS journals the rename itself). */
export function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems (network mounts) refuse to sync a folder; the rename itself was done.
  } finally {
    closeSync(fd);
  }
}

/** 2026-11-24T03:04:11.123Z -> 2026-11-24T03-04-11Z: a name part valid on every platform. */
export function stampOf(nowMs: number): string {
  return new Date(nowMs).toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}
