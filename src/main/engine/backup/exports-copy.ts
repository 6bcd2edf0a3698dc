import { chmodSync, constants, copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { exportsDir } from '../jobs/files';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-dir';
import type { ExportRef } from './contents';
import { fsyncDir, fsyncFile } from './durable';

// The export files a database refers to, as `skein backup` reports them and, with --with-exports,
// copies them: into one folder beside the backup (FILE.exports/), flat, under the names the
// database knows them by, so `skein restore FILE` finds each by its job's result_file.

export interface ExportsSummary {
  /** Data files the database refers to. */
  referenced: number;
  /** Of those, the ones in the exports folder now, and their bytes. */
  present: number;
  bytes: number;
  /** Referred to but not in the exports folder (removed by hand, or by Exports). */
  missing: string[];
}

export function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

export function summarizeExports(dataDir: string, refs: readonly ExportRef[]): ExportsSummary {
  const summary: ExportsSummary = { referenced: refs.length, present: 0, bytes: 0, missing: [] };
  for (const ref of refs) {
    const st = statSync(join(exportsDir(dataDir), ref.file_name), { throwIfNoEntry: false });
    if (st?.isFile()) {
      summary.present++;
      summary.bytes += st.size;
    } else summary.missing.push(ref.file_name);
  }
  return summary;
}

/** Copies one file (a reflink where the file system has them), private and synced. */
export function copyPrivate(from: string, to: string): void {
  copyFileSync(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  chmodSync(to, PRIVATE_FILE_MODE);
  fsyncFile(to);
}

/** Copies every referenced file that is there into `dir` (a new folder); returns what it copied. */
export function copyExportsInto(dataDir: string, refs: readonly ExportRef[], dir: string): ExportsSummary {
  mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
  const copied: ExportsSummary = { referenced: refs.length, present: 0, bytes: 0, missing: [] };
  for (const ref of refs) {
    const from = join(exportsDir(dataDir), ref.file_name);
    const to = join(dir, ref.file_name);
    try {
      copyPrivate(from, to);
    } catch (err) {
      // Gone since the snapshot (removed in Exports meanwhile): said as missing, not an error.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || isFile(from)) throw err;
      copied.missing.push(ref.file_name);
      continue;
    }
    copied.present++;
    copied.bytes += statSync(to).size;
  }
  fsyncDir(dir);
  return copied;
}
