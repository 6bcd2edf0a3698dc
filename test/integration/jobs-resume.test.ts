import { DuckDBInstance } from '@duckdb/node-api';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRepliesJob } from '../../src/main/engine/jobs';
import { stagedPath } from '../../src/main/engine/jobs/files';
import { finalizeOutput } from '../../src/main/engine/jobs/finalize';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { cancelJob } from '../../src/main/engine/jobs/queue/cancel';
import { claimNextJob } from '../../src/main/engine/jobs/queue/claim';
import { createJob } from '../../src/main/engine/jobs/queue/create';
import { recoverStaleLocks, runnerOwner } from '../../src/main/engine/jobs/queue/recover';
import { runJob, type RunContext } from '../../src/main/engine/jobs/run-job';
import { createKey } from '../../src/main/engine/keys';
import { assertInvariants, holdsOfJob } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { parseCsv, readXlsx } from '../fixtures/data-files';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// The queue's transitions and the resume rule, step by step on a real store and real files: a run
// that stops after some batches (as a killed process does), with bytes of an uncommitted batch
// left in the staged file, resumes from its checkpoint; cancel ends a running job in error.

type Format = 'json' | 'csv' | 'xlsx' | 'parquet';

function setup(format: Format) {
  const engine = testEngine();
  const convo = writeConversation(engine.db, 23, 5);
  const { user } = createKey(engine, 'analyst');
  const parsed = parseRepliesJob(engine.db, String(ROOT_ID), { output_format: format });
  const jobId = createJob(engine.db, { userId: user.id, kind: 'replies', params: parsed.params, output: parsed.output, maxRows: parsed.maxRows, nowMs: engine.clock.nowMs() });
  const ctx = (workerId: string, extra: Partial<RunContext> = {}): RunContext => ({ db: engine.db, dataDir: engine.dataDir, clock: engine.clock, ids: engine.ids, workerId, batchRows: 4, ...extra });
  return { engine, convo, jobId, ctx };
}

async function idsInFile(engine: ReturnType<typeof testEngine>, jobId: number, format: Format): Promise<string[]> {
  const job = getJob(engine.db, jobId)!;
  const buf = readFileSync(join(engine.dataDir, 'exports', job.result_file!));
  if (format === 'json') return (JSON.parse(buf.toString()) as { id_str: string }[]).map((r) => r.id_str);
  if (format === 'csv') return parseCsv(buf.toString().slice(1)).slice(1).map((r) => r[0]!);
  if (format === 'parquet') {
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    const ids = (await c.runAndReadAll(`SELECT id_str FROM read_parquet('${join(engine.dataDir, 'exports', job.result_file!)}')`)).getRowsJS().map((r) => String(r[0]));
    c.closeSync();
    instance.closeSync();
    return ids;
  }
  return (await readXlsx(buf)).rows.slice(1).map((r) => String(r[0]));
}

describe('resume after a stop mid-job', () => {
  it.each(['json', 'csv', 'xlsx', 'parquet'] as const)('%s: cuts the uncommitted tail, continues after the checkpoint, charges each row once', async (format) => {
    const { engine, convo, jobId, ctx } = setup(format);
    const first = `${runnerOwner('first')}:0`;
    const claimed = claimNextJob(engine.db, first, engine.clock.nowMs())!;
    let batches = 0;
    const stopped = await runJob(ctx(first, { between: async () => void batches++, stopRequested: () => batches >= 2 }), claimed);
    expect(stopped).toBe('stopped');
    const mid = getJob(engine.db, jobId)!;
    expect(mid).toMatchObject({ status: 'processing', checkpoint_rows: 8, progress: 8, charged_credits: 8, phase: 'collect' });
    // A batch written but never committed: the process died between the write and the commit.
    appendFileSync(stagedPath(engine.dataDir, mid), format === 'json' ? ',\n{"id_str":"garbage"}' : 'garbage,row\r\n');

    const second = `${runnerOwner('second')}:0`;
    expect(recoverStaleLocks(engine.db, runnerOwner('second'), engine.clock.nowMs(), 600_000)).toEqual([jobId]);
    const again = claimNextJob(engine.db, second, engine.clock.nowMs())!;
    // The stopped attempt had committed two batches: recovery gave it back, so this is attempt 1 again.
    expect(again.attempts).toBe(1);
    expect(await runJob(ctx(second), again)).toBe('success');

    expect(await idsInFile(engine, jobId, format)).toEqual(convo.expected.map(String));
    const [hold] = holdsOfJob(engine.db, jobId);
    expect(hold).toMatchObject({ posted: convo.expected.length, open: false });
    expect(existsSync(stagedPath(engine.dataDir, mid))).toBe(false);
    assertInvariants(engine.db);
  });

  // A batch is read in several pages and committed once (limits.ts BATCH_ROWS and PAGE_ROWS): a
  // stop between two pages of a batch leaves pages on disk that no checkpoint covers.
  it.each(['json', 'csv', 'xlsx', 'parquet'] as const)('%s: a stop between the pages of a batch resumes at the batch before, each row written and charged once', async (format) => {
    const { engine, convo, jobId, ctx } = setup(format);
    const staged = () => stagedPath(engine.dataDir, getJob(engine.db, jobId)!);
    const first = `${runnerOwner('first')}:0`;
    const claimed = claimNextJob(engine.db, first, engine.clock.nowMs())!;
    // Stop as soon as the second batch has a page on disk beyond its checkpoint.
    const midBatch = () => {
      const job = getJob(engine.db, jobId)!;
      return job.checkpoint_rows === 10 && existsSync(staged()) && statSync(staged()).size > job.checkpoint_bytes;
    };
    expect(await runJob(ctx(first, { batchRows: 10, pageRows: 3, stopRequested: midBatch }), claimed)).toBe('stopped');
    const mid = getJob(engine.db, jobId)!;
    expect(mid).toMatchObject({ status: 'processing', checkpoint_rows: 10, charged_credits: 10, phase: 'collect' });
    expect(statSync(staged()).size).toBeGreaterThan(mid.checkpoint_bytes);
    // The first batch (four pages: 3 + 3 + 3 + 1 rows) was one commit and one charge.
    const charges = () => engine.db.prepare(`SELECT id, amount FROM ledger_transfers WHERE id LIKE ? ORDER BY seq`).all(`job:${jobId}:rows:%`);
    expect(charges()).toEqual([{ id: `job:${jobId}:rows:0`, amount: 10 }]);

    recoverStaleLocks(engine.db, runnerOwner('second'), engine.clock.nowMs(), 600_000);
    const second = `${runnerOwner('second')}:0`;
    expect(await runJob(ctx(second, { batchRows: 10, pageRows: 3 }), claimNextJob(engine.db, second, engine.clock.nowMs())!)).toBe('success');
    expect(await idsInFile(engine, jobId, format)).toEqual(convo.expected.map(String));
    expect(convo.expected.length).toBe(28);
    expect(charges()).toEqual([
      { id: `job:${jobId}:rows:0`, amount: 10 },
      { id: `job:${jobId}:rows:10`, amount: 10 },
      { id: `job:${jobId}:rows:20`, amount: 8 },
    ]);
    assertInvariants(engine.db);
  });

  it.each(['json', 'xlsx', 'parquet'] as const)('%s: a job stopped during its finalize phase builds the same file again', async (format) => {
    const { engine, convo, jobId, ctx } = setup(format);
    const w = `${runnerOwner('a')}:0`;
    const claimed = claimNextJob(engine.db, w, engine.clock.nowMs())!;
    const inFinalize = () => getJob(engine.db, jobId)!.phase === 'finalize';
    expect(await runJob(ctx(w, { stopRequested: inFinalize }), claimed)).toBe('stopped');
    // The dead process had built the file (footer and all) but not committed the success.
    await finalizeOutput(engine.db, engine.dataDir, getJob(engine.db, jobId)!, new Date(0));
    recoverStaleLocks(engine.db, runnerOwner('b'), engine.clock.nowMs(), 600_000);
    const w2 = `${runnerOwner('b')}:0`;
    expect(await runJob(ctx(w2), claimNextJob(engine.db, w2, engine.clock.nowMs())!)).toBe('success');
    expect(await idsInFile(engine, jobId, format)).toEqual(convo.expected.map(String));
    expect(holdsOfJob(engine.db, jobId)[0]).toMatchObject({ posted: convo.expected.length, open: false });
  });

  it('cancel: a running job stops at the next batch and ends in error, its hold voided', async () => {
    const { engine, jobId, ctx } = setup('csv');
    const w = `${runnerOwner('c')}:0`;
    const claimed = claimNextJob(engine.db, w, engine.clock.nowMs())!;
    const outcome = await runJob(ctx(w, { between: async () => void cancelJob(engine.db, jobId, engine.clock.nowMs()) }), claimed);
    expect(outcome).toBe('error');
    const job = getJob(engine.db, jobId)!;
    expect(job).toMatchObject({ status: 'error', last_error: 'Cancelled by the user', locked_by: null });
    expect(job.finished_at_ms).not.toBeNull();
    const [hold] = holdsOfJob(engine.db, jobId);
    expect(hold).toMatchObject({ posted: 4, open: false });
    expect(existsSync(stagedPath(engine.dataDir, job))).toBe(false);
    assertInvariants(engine.db);
  });

  it('a fault of the machine is retried with a backoff, and ends in error after the last attempt', async () => {
    const { engine, jobId, ctx } = setup('csv');
    // The staged file's place is taken by a folder: every attempt fails with EISDIR.
    mkdirSync(stagedPath(engine.dataDir, getJob(engine.db, jobId)!), { recursive: true });
    const outcomes: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const w = `${runnerOwner(`r${attempt}`)}:0`;
      const job = claimNextJob(engine.db, w, engine.clock.nowMs());
      if (!job) {
        // Not yet runnable: the backoff (2^attempts seconds) has to pass first.
        engine.clock.advance(2 ** attempt * 1000);
        attempt -= 1;
        continue;
      }
      outcomes.push(await runJob(ctx(w), job));
    }
    expect(outcomes).toEqual(['pending', 'pending', 'pending', 'pending', 'error']);
    const job = getJob(engine.db, jobId)!;
    expect(job).toMatchObject({ status: 'error', attempts: 5 });
    expect(job.last_error).toMatch(/^Internal error while running the job: .*EISDIR/);
    expect(holdsOfJob(engine.db, jobId)[0]).toMatchObject({ open: false });
    assertInvariants(engine.db);
  });
});
