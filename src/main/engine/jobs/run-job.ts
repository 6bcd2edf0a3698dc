import type { Clock } from '../clock';
import { SkeinError } from '../errors';
import type { IdSource } from '../ids';
import type { Db } from '../store/db';
import { finalizeOutput, removeStaged } from './finalize';
import { stagedPath } from './files';
import { getJob, JobStateError, TransientJobError, type JobRow } from './job-row';
import { writeTweetRows } from './tweet-row';
import { repliesSource } from './kinds/replies';
import { searchSource } from './kinds/search';
import { timelineSource } from './kinds/timeline';
import type { RowSource } from './kinds/source';
import { BATCH_ROWS, PAGE_ROWS } from './limits';
import type { RepliesParams, SearchParams, TimelineParams } from './params';
import { endCancelled } from './queue/cancel';
import { commitBatch } from './queue/checkpoint';
import { completeJob } from './queue/complete';
import { failJob, type FailHow } from './queue/fail';
import { restartIfStagedGone } from './queue/restart';
import { diskFullFault } from './disk-full';
import { UnsettledRunError } from './unsettled';
import { stagedFormats } from './writers/formats';
import { StagedFile } from './writers/staged-file';
import { walkUpstream } from './upstream/walk';
import { holdWhatTheWalkStored } from './upstream/hold-walked';
import type { XlsxOptions } from './writers/xlsx';

export interface RunContext {
  db: Db;
  dataDir: string;
  clock: Clock;
  ids: IdSource;
  /** This worker's lock name (recover.ts: "<host>:<pid>:<runner>:<slot>"). */
  workerId: string;
  batchRows?: number;
  /** Post ids per read page inside a batch, at most PAGE_ROWS; tests lower it to see several pages a batch. */
  pageRows?: number;
  xlsx?: XlsxOptions;
  /** Called between batches: the inline runner yields to the event loop here. */
  between?: () => Promise<void>;
  /** A stopping runner: leave the job at its last checkpoint (the runner gives the lock back). */
  stopRequested?: () => boolean;
  onProgress?: (jobId: number, rows: number) => void;
  /** The upstream API key for a job that walks the upstream (the main thread reads the keychain). */
  upstreamKey?: string | null;
}

export type RunOutcome = 'success' | 'error' | 'pending' | 'lost' | 'stopped';

function sourceOf(db: Db, job: JobRow): RowSource {
  if (job.kind === 'timeline') return timelineSource(db, JSON.parse(job.params_json) as TimelineParams);
  return job.kind === 'replies'
    ? repliesSource(db, JSON.parse(job.params_json) as RepliesParams)
    : searchSource(db, JSON.parse(job.params_json) as SearchParams);
}

/** Client mistakes and refusals cannot get better by retrying; faults of the machine can; an outage outside Skein is waited out. */
function failHow(err: unknown): FailHow {
  if (err instanceof TransientJobError) return { pause_ms: err.pauseMs };
  return err instanceof SkeinError && err.code !== 'internal' ? 'permanent' : 'retry';
}

/**
 * Runs a claimed job to its end: collect (batches of rows staged and committed with their charge
 * and checkpoint), finalize (the data file), complete. A job resumed after a crash starts from its
 * checkpoint: the staged file is cut back to the committed length, the walk continues after the
 * committed cursor, so no post is written or charged twice.
 */
export async function runJob(ctx: RunContext, claimed: JobRow): Promise<RunOutcome> {
  const { db, dataDir, clock, workerId } = ctx;
  const batchRows = ctx.batchRows ?? BATCH_ROWS;
  const pageRows = Math.min(PAGE_ROWS, ctx.pageRows ?? PAGE_ROWS);
  let job = claimed;
  try {
    if (job.phase === 'collect') {
      if ((await walkUpstream(ctx, job)) === 'stopped') return 'stopped';
      job = holdWhatTheWalkStored(db, job, workerId, clock.nowMs());
    }
    job = restartIfStagedGone(db, dataDir, job, workerId, clock.nowMs());
    if (job.phase === 'collect') {
      const format = stagedFormats[job.output_format];
      const source = sourceOf(db, job);
      const limit = job.progress_total ?? job.held_credits;
      const file = new StagedFile(stagedPath(dataDir, job), job.checkpoint_bytes);
      try {
        let rows = job.checkpoint_rows;
        let cursor = job.checkpoint_cursor;
        if (file.bytes === 0 && format.header) file.append(format.header);
        for (;;) {
          // One batch: pages of at most PAGE_ROWS ids, each written to the file as it is read,
          // until batchRows rows or the end; then one fsync and one commit (limits.ts).
          let batch = 0;
          let finished = false;
          // The batch's posts, recorded in job_posts with its commit (migration 066); null for a job from before it.
          const postIds: bigint[] | null = job.records_posts === 1 ? [] : null;
          for (;;) {
            // Between pages as well: a stop or a cancel leaves the rows after the last commit
            // uncommitted, and a resume cuts them off the file.
            if (ctx.stopRequested?.()) return 'stopped';
            if (cancelRequested(db, job.id)) {
              file.close();
              endCancelled(db, job.id, workerId, clock.nowMs());
              removeStaged(dataDir, job);
              return 'error';
            }
            const want = Math.min(pageRows, batchRows - batch, limit - rows - batch);
            if (want <= 0) {
              finished = rows + batch >= limit;
              if (finished && batch === 0) cursor = null;
              break;
            }
            const page = source.next(cursor, want);
            const before = rows + batch;
            const wallet = source.wallet;
            const out = writeTweetRows(db, page.ids, (r, i) => format.line(r, wallet?.(r.full_text), before + i));
            if (out.rows) file.append(out.text);
            postIds?.push(...out.ids);
            batch += out.rows;
            cursor = page.cursor;
            if (page.cursor === null || rows + batch >= limit) {
              finished = true;
              break;
            }
          }
          file.sync();
          const total = rows + batch;
          commitBatch(db, job.id, workerId, rows, { cursor, rows: total, bytes: file.bytes, finished, postIds }, clock.nowMs());
          rows = total;
          ctx.onProgress?.(job.id, rows);
          if (finished) break;
          if (ctx.between) await ctx.between();
        }
      } finally {
        file.close();
      }
      job = getJob(db, job.id)!;
      if (ctx.stopRequested?.()) return 'stopped';
    }
    const out = await finalizeOutput(db, dataDir, job, new Date(clock.nowMs()), ctx.xlsx);
    completeJob(db, job.id, workerId, {
      file: out.file,
      token: job.datafile_token ?? ctx.ids.randomHex(24),
      isCompressed: job.compress === 1,
      rows: job.checkpoint_rows,
      bytes: out.bytes,
    }, clock.nowMs());
    removeStaged(dataDir, job);
    return 'success';
  } catch (err) {
    if (err instanceof JobStateError) return 'lost';
    const { message, how } = diskFullFault(db, dataDir, job, err, clock.nowMs()) ?? {
      message: err instanceof SkeinError || err instanceof TransientJobError ? err.message : `Internal error while running the job: ${(err as Error).message ?? String(err)}`,
      how: failHow(err),
    };
    let state: ReturnType<typeof failJob>;
    try {
      state = failJob(db, job.id, workerId, message, how, clock.nowMs());
    } catch (failErr) {
      // SQLite cannot write either (a full disk): the runner records this end when it can.
      throw new UnsettledRunError({ message, how }, failErr);
    }
    if (state === 'error') removeStaged(dataDir, job);
    return state ?? 'lost';
  }
}

function cancelRequested(db: Db, jobId: number): boolean {
  const row = db.prepare('SELECT cancel_requested FROM jobs WHERE id = ?').get(jobId) as { cancel_requested: number } | undefined;
  return row?.cancel_requested === 1;
}
