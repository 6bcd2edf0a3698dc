import { MigrationError } from '../store/migrate';

/**
 * A backup or restore refused or stopped for a reason the user can act on: the CLI prints its
 * message on one line and exits 1 (never a stack trace). Nothing was changed when it is thrown
 * before the swap (restore.ts says when).
 */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** An error of the file system as one line that names the path and what to do. */
export function fsMessage(err: unknown, path: string, doing: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return doing === 'read' ? `${path} does not exist.` : `cannot ${doing} ${path}: no such file or folder.`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `cannot ${doing} ${path}: permission denied.`;
  if (code === 'ENOSPC' || code === 'SQLITE_FULL') return `cannot ${doing} ${path}: the disk is full.`;
  if (code === 'ENOTDIR') return `cannot ${doing} ${path}: a part of the path is a file, not a folder.`;
  if (code === 'EISDIR') return `${path} is a folder, not a file.`;
  return `cannot ${doing} ${path}: ${oneLine(err)}`;
}

/** Any error as a BackupError with `what` in front, its message kept to one line. */
export function asBackupError(err: unknown, what: (message: string) => string): BackupError {
  if (err instanceof BackupError) return err;
  return new BackupError(what(err instanceof MigrationError ? err.message : oneLine(err)));
}

export function oneLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}
