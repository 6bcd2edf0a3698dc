import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { BackupError, fsMessage } from './errors';

// What a file must look like before restore copies it into a data dir: the SQLite header
// (https://www.sqlite.org/fileformat.html, section 1.3) read with plain file reads, so a file that
// is not a database, or a copy cut short, is refused in one line before SQLite or the data dir are
// touched. SQLite's own quick_check of every page comes after (restore.ts).

const MAGIC = 'SQLite format 3\u0000';
const HEADER_BYTES = 100;

export interface SqliteFileInfo {
  bytes: number;
  page_size: number;
}

export function checkSqliteFile(path: string): SqliteFileInfo {
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new BackupError(`${path} is a folder, not a backup file (name the .db file 'skein backup --to' wrote).`);
    if (!st.isFile()) throw new BackupError(`${path} is not a regular file.`);
    size = st.size;
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(fsMessage(err, path, 'read'));
  }
  if (size === 0) throw new BackupError(`${path} is empty, not a Skein backup.`);
  const header = Buffer.alloc(HEADER_BYTES);
  let read: number;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, header, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new BackupError(fsMessage(err, path, 'read'));
  }
  if (read < MAGIC.length || header.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw new BackupError(`${path} is not a SQLite database (it does not begin with "SQLite format 3").`);
  }
  if (read < HEADER_BYTES) throw new BackupError(`${path} is truncated: ${size} bytes, shorter than a SQLite header.`);
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65_536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new BackupError(`${path} has a damaged SQLite header (page size ${raw}).`);
  // The header's page count is trusted only when its "version-valid-for" matches the change
  // counter (offsets 92 and 24); a file is always whole pages.
  const pages = header.readUInt32BE(28);
  const headerValid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  if (size % pageSize !== 0 || (headerValid && pages * pageSize > size)) {
    const expected = headerValid ? `its header says ${pages * pageSize} (${pages} pages of ${pageSize})` : `not a whole number of its ${pageSize}-byte pages`;
    throw new BackupError(`${path} is truncated: it holds ${size} bytes, ${expected}.`);
  }
  return { bytes: size, page_size: pageSize };
}
