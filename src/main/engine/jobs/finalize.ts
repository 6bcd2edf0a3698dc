import { copyFileSync, linkSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JobRow } from './job-row';
import { dataFileName, exportsDir, partialDir, stagedPath } from './files';
import type { Db } from '../store/db';
import { csvDialectOf, gexfSliceOf, type RepliesParams, type SearchParams, type TimelineParams } from './params';
import { writeExcelCsvFromPlain } from './writers/excel-csv';
import { stagedFormats } from './writers/formats';
import { writeGexf } from './writers/gexf';
import { writeParquetFromStaged } from './writers/parquet';
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
export async function finalizeOutput(db: Db, dataDir: string, job: JobRow, mtime: Date, xlsx: XlsxOptions = {}): Promise<FinalOutput> {
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
  // A file made from the staged rows (a workbook, an excel CSV, Parquet, GEXF) is written as
  // `built`, then zipped into `tmp` or renamed to it.
  const built = join(partialDir(dataDir), `job${job.id}.book.${job.output_format}`);
  const product = async (write: () => Promise<unknown>): Promise<void> => {
    rmSync(built, { force: true });
    await write();
    if (job.compress) {
      await zipOneFile(built, dataName, tmp, mtime);
      rmSync(built, { force: true });
    } else renameSync(built, tmp);
  };
  if (job.output_format === 'xlsx') {
    await product(() => writeXlsxFromStaged(staged, built, xlsx));
  } else if (job.output_format === 'parquet') {
    await product(() => writeParquetFromStaged(staged, built, join(partialDir(dataDir), `job${job.id}.duckdb-tmp`)));
  } else if (job.output_format === 'gexf') {
    const scratch = join(partialDir(dataDir), `job${job.id}.gexf-scratch.db`);
    await product(() => writeGexf(db, staged, built, scratch, { jobId: job.id, slice: gexfSliceOf(job), description: describeJob(job), date: mtime }));
  } else if (job.output_format === 'csv' && csvDialectOf(job) === 'excel') {
    // Staged in the plain dialect (writers/formats.ts): BOM and formula guard are added here.
    await product(() => writeExcelCsvFromPlain(staged, built));
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

/** One line on what a job collected, for a file that can say so (GEXF's <meta><description>). */
function describeJob(job: JobRow): string {
  let what: string;
  try {
    const params = JSON.parse(job.params_json) as Partial<RepliesParams & SearchParams & TimelineParams>;
    what =
      job.kind === 'replies'
        ? `the replies to post ${params.tweet_id}`
        : job.kind === 'timeline'
          ? `the timeline of user ${params.user_id}${params.timeline === 'tweets-and-replies' ? ', posts and replies' : ''}`
          : `the search ${JSON.stringify(params.query ?? '')}`;
  } catch {
    what = `a ${job.kind} job`;
  }
  return (
    `Skein job ${job.id}: the accounts of ${job.checkpoint_rows} posts (${what}) and the replies, mentions, quotes and ` +
    'retweets in those posts, as edges weighted by the number of posts.'
  );
}

/**
 * Removes a job's files in exports/.partial once the job has ended (success, error or cancel): the
 * staged file, and what a finalize that failed left (its `.tmp-` product, its `.book.<format>`), which
 * on a full disk is as large as the staged file, a GEXF job's scratch database, a Parquet job's
 * spill folder). Best effort: the job's end is already committed;
 * a leftover is listed in Exports, where it can be removed (jobs/partials.ts).
 */
export function removeStaged(dataDir: string, job: Pick<JobRow, 'id' | 'output_format'>): void {
  for (const name of partialNamesOf(dataDir, job.id)) {
    try {
      // recursive: DuckDB's spill folder of a Parquet job that failed (job<id>.duckdb-tmp).
      rmSync(join(partialDir(dataDir), name), { force: true, recursive: true });
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
