import { dbFileOf } from '../engine';
import { freeSpaceAt, isDiskFull, mbText, neededMbText, pathOfError } from '../disk/space';
import type { Db } from '../store/db';
import { partialDir, stagedPath } from './files';
import { getJob, type JobRow } from './job-row';
import type { FailHow } from './queue/fail';

// A full disk under a running job (issue 13, docs/decisions.md "A full disk pauses a job"). Like an
// upstream outage (upstream/walk.ts) it is a fault outside Skein that time (the analyst freeing
// space) cures, so the job pauses without using its attempts, at its last committed batch, and
// tries again every minute: a try on a still-full disk costs one failed write. After 24 h of a full
// disk it ends in error (its staged file is removed then, which frees what it held).

/** The pause between tries: one minute, so a freed disk is used within a minute of being freed. */
export const DISK_FULL_PAUSE_MS = 60_000;
/** How long a job waits for space before it ends in error: 24 h, as long as it waits for an upstream. */
export const MAX_DISK_FULL_MS = 24 * 3_600_000;
/**
 * Bytes per row before the job has committed any: measured on the test conversation, a post is
 * ~1.3 KB as JSON and ~0.3 KB as a CSV line (XLSX stages a similar line of cells); real posts with
 * full entities run larger, so the guesses are rounded up.
 */
const BYTES_PER_ROW_GUESS: Record<JobRow['output_format'], number> = { json: 2_048, csv: 512, xlsx: 512, parquet: 1_024, gexf: 20 };
// A GEXF file is made from the corpus, not from its staged post ids (20 bytes a post): the XML of
// its nodes and edges (77 bytes a post static, 192 by day, for the demo corpus's 20,000 posts) and
// a scratch database of the posts' interactions beside it while it is written: 300 bytes a post
// covers both.
const GEXF_BYTES_PER_POST = 300;

export interface JobFault {
  message: string;
  how: FailHow;
}

/**
 * What the job still has to write: the rows it has not collected at the bytes per row it has
 * written so far, plus the finished file where that is a second file (a workbook or a zip, about
 * as large as the staged rows, a Parquet file; a GEXF file and its scratch database; a JSON or CSV
 * file is a hard link of the staged one).
 */
export function bytesStillNeeded(job: JobRow): number {
  const limit = job.progress_total ?? job.held_credits;
  const perRow = job.checkpoint_rows > 0 ? job.checkpoint_bytes / job.checkpoint_rows : BYTES_PER_ROW_GUESS[job.output_format];
  const staged = job.phase === 'collect' ? job.checkpoint_bytes + Math.max(0, limit - job.checkpoint_rows) * perRow : job.checkpoint_bytes;
  const rows = job.phase === 'collect' ? Math.max(limit, job.checkpoint_rows) : job.checkpoint_rows;
  const secondFile =
    job.output_format === 'gexf' ? rows * GEXF_BYTES_PER_POST : job.output_format === 'xlsx' || job.output_format === 'parquet' || job.compress === 1 ? staged : 0;
  return Math.ceil(staged - job.checkpoint_bytes + secondFile);
}

/** The file the refused write was for: the one the error names, else the database or the staged file. */
function refusedPath(dataDir: string, job: JobRow, err: unknown): string {
  const named = pathOfError(err);
  if (named) return named;
  if ((err as { code?: unknown }).code === 'SQLITE_FULL') return dbFileOf(dataDir);
  return job.phase === 'collect' ? stagedPath(dataDir, job) : partialDir(dataDir);
}

const utcTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * A full disk as the job's fault (a pause, or the end after 24 h), or null for any other error.
 * Records when the disk was first found full for this job (commitBatch clears it). On a disk so
 * full that SQLite cannot write that either, the count starts at a later try: the pause itself is
 * then recorded by the runner once SQLite writes again (unsettled.ts).
 */
export function diskFullFault(db: Db, dataDir: string, claimed: JobRow, err: unknown, nowMs: number): JobFault | null {
  if (!isDiskFull(err)) return null;
  // As committed now (the claimed row is older than its batches); reading needs no space.
  const job = getJob(db, claimed.id) ?? claimed;
  const path = refusedPath(dataDir, job, err);
  const { freeBytes, mount } = freeSpaceAt(path);
  const what = `writing ${path} needs about ${neededMbText(bytesStillNeeded(job))} more (${mbText(freeBytes)} free on ${mount})`;
  const sinceMs = job.disk_full_since_ms ?? nowMs;
  try {
    if (job.disk_full_since_ms === null) db.prepare('UPDATE jobs SET disk_full_since_ms = ? WHERE id = ?').run(sinceMs, job.id);
  } catch {
    // SQLITE_FULL here too: the pause is settled by the runner once SQLite can write again.
  }
  if (nowMs - sinceMs >= MAX_DISK_FULL_MS) {
    return {
      message: `The disk has been full since ${utcTime(sinceMs)} (24 h): ${what}. The job's unfinished file was removed; free space and retry the job.`,
      how: 'permanent',
    };
  }
  return {
    message: `The disk is full: ${what}. Free space; the job resumes from its last checkpoint. It tries again every minute (full since ${utcTime(sinceMs)}; it ends after 24 h).`,
    how: { pause_ms: DISK_FULL_PAUSE_MS },
  };
}
