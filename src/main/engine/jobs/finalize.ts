import { copyFileSync, linkSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JobRow } from './job-row';
import { dataFileName, exportsDir, partialDir, stagedPath } from './files';
import { csvDialectOf } from './params';
import { writeExcelCsvFromPlain } from './writers/excel-csv';
import { stagedFormats } from './writers/formats';
import { StagedFile } from './writers/staged-file';
import { writeXlsxFromStaged, type XlsxOptions } from './writers/xlsx';
import { zipOneFile } from './writers/zip';

export interface FinalOutput {
  /** File name under <dataDir>/exports. */
  file: string;
  bytes: number;
}

/**
 * Turns the staged rows into the data file. Idempotent, so a crash anywhere in here is repaired by
 * running it again: the staged file is cut back to its committed length before the footer is
 * added, and every product is written under a temporary name and renamed into place. The staged
 * file stays until the job's success is committed (removeStaged).
 */
export async function finalizeOutput(dataDir: string, job: JobRow, mtime: Date, xlsx: XlsxOptions = {}): Promise<FinalOutput> {
  const format = stagedFormats[job.output_format];
  const staged = stagedPath(dataDir, job);
  const file = new StagedFile(staged, job.checkpoint_bytes);
  try {
    if (file.bytes === 0 && format.header) file.append(format.header);
    if (format.footer) file.append(format.footer);
    file.sync();
  } finally {
    file.close();
  }
  const dataName = dataFileName(job);
  const finalName = job.compress ? `${dataName}.zip` : dataName;
  const finalPath = join(exportsDir(dataDir), finalName);
  const tmp = join(partialDir(dataDir), `job${job.id}.tmp-${finalName}`);
  rmSync(tmp, { force: true });
  if (job.output_format === 'xlsx') {
    const book = join(partialDir(dataDir), `job${job.id}.book.xlsx`);
    rmSync(book, { force: true });
    await writeXlsxFromStaged(staged, book, xlsx);
    if (job.compress) {
      await zipOneFile(book, dataName, tmp, mtime);
      rmSync(book, { force: true });
    } else renameSync(book, tmp);
  } else if (job.output_format === 'csv' && csvDialectOf(job) === 'excel') {
    // Staged in the plain dialect (writers/formats.ts): BOM and formula guard are added here.
    const excel = join(partialDir(dataDir), `job${job.id}.excel.csv`);
    rmSync(excel, { force: true });
    await writeExcelCsvFromPlain(staged, excel);
    if (job.compress) {
      await zipOneFile(excel, dataName, tmp, mtime);
      rmSync(excel, { force: true });
    } else renameSync(excel, tmp);
  } else if (job.compress) {
    await zipOneFile(staged, dataName, tmp, mtime);
  } else {
    // A hard link instead of a copy: a million-row JSON file is gigabytes. Both names stay until
    // the success commits; removing the staged name then leaves the data file alone.
    try {
      linkSync(staged, tmp);
    } catch {
      copyFileSync(staged, tmp);
    }
  }
  renameSync(tmp, finalPath);
  return { file: finalName, bytes: statSync(finalPath).size };
}

/**
 * Removes a job's files in exports/.partial once the job has ended (success, error or cancel): the
 * staged file, and what a finalize that failed left (its `.tmp-` product, its `.book.xlsx`), which
 * on a full disk is as large as the staged file. Best effort: the job's end is already committed;
 * a leftover is listed in Exports, where it can be removed (jobs/partials.ts).
 */
export function removeStaged(dataDir: string, job: Pick<JobRow, 'id' | 'output_format'>): void {
  for (const name of partialNamesOf(dataDir, job.id)) {
    try {
      rmSync(join(partialDir(dataDir), name), { force: true });
    } catch {
      // e.g. EISDIR or EPERM: left for the user; never turns a finished job into a failure.
    }
  }
}

/** The names in exports/.partial that belong to a job: job<id>.<anything>. */
export function partialNamesOf(dataDir: string, jobId: number): string[] {
  try {
    return readdirSync(partialDir(dataDir)).filter((n) => n.startsWith(`job${jobId}.`));
  } catch {
    return [];
  }
}
