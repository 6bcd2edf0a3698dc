import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { partialDir, stagedPath } from '../../src/main/engine/jobs/files';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { setStagedWriteLimit } from '../../src/main/engine/jobs/writers/staged-file';
import { assertInvariants, holdsOfJob } from '../../src/main/engine/ledger';
import { fund } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { csvRows, fundedKey, jobEnd, jobStatus, startJob } from '../helpers/upstream-jobs';

// A full disk under a running job (issue 13), on one engine with the inline runner (the same
// runJob as the worker threads) and a manual clock. The disk is full on demand: the staged-file
// writer's test limit (ENOSPC after N bytes, as a real full disk: what fits is written), and
// SQLite's own SQLITE_FULL from PRAGMA max_page_count. A real full disk under worker threads and a
// real `skein serve` is jobs-disk-full-tmpfs.test.ts.

const REPLIES = 300;
const BATCH = 50;
const HOUR_MS = 3_600_000;
const limited: string[] = [];
afterEach(() => {
  while (limited.length) setStagedWriteLimit(limited.pop()!, null);
});

function diskFullAfter(dataDir: string, bytes: number | null): void {
  setStagedWriteLimit(partialDir(dataDir), bytes);
  limited.push(partialDir(dataDir));
}

async function setup() {
  const engine = testEngine();
  const convo = writeConversation(engine.db, REPLIES, 5);
  const server = await startServer(engine);
  const analyst = fundedKey(engine, 'analyst');
  return { engine, convo, server, analyst };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

/** Waits for the job to pause (pending with a message), or to end. */
async function settled(t: Setup, jobId: number): Promise<void> {
  await until(() => {
    const job = getJob(t.engine.db, jobId)!;
    return job.status === 'success' || job.status === 'error' || (job.status === 'pending' && job.last_error !== null && job.run_at_ms > t.engine.clock.nowMs());
  });
}

/** Lets the pause run out on the manual clock (or jumps `laterMs` ahead) and waits for the next try to end. */
async function nextTry(t: Setup, runner: { poke(): void }, jobId: number, laterMs = 0): Promise<void> {
  t.engine.clock.set(Math.max(t.engine.clock.nowMs() + laterMs, getJob(t.engine.db, jobId)!.run_at_ms));
  runner.poke();
  await settled(t, jobId);
}

/** The job's row charges: consecutive ranges from row 0, one per row, none twice. */
function chargedRows(t: Setup, jobId: number): number {
  const charges = t.engine.db
    .prepare(`SELECT id, amount FROM ledger_transfers WHERE id LIKE ? AND kind = 'post_pending' ORDER BY seq`)
    .all(`job:${jobId}:rows:%`) as { id: string; amount: number }[];
  let next = 0;
  for (const c of charges) {
    expect(c.id).toBe(`job:${jobId}:rows:${next}`);
    next += c.amount;
  }
  return next;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a full disk under a running job', () => {
  it('pauses the job with the path and the space, uses no attempt, serves reads, and resumes from its checkpoint', { timeout: 60_000 }, async () => {
    const t = await setup();
    // The header and two batches of 50 rows fit (~300 bytes a CSV row), the third does not.
    diskFullAfter(t.engine.dataDir, 40_000);
    const runner = testRunner(t.engine, { mode: 'inline', batchRows: BATCH });
    const jobId = await startJob(t.server.url, t.analyst.key, `/social/tweets/${ROOT_ID}/comments/asyncJob`, { output_format: 'csv' });
    await settled(t, jobId);

    const paused = getJob(t.engine.db, jobId)!;
    expect(paused.status, paused.last_error ?? '').toBe('pending');
    expect(paused.attempts).toBe(0);
    expect(paused.checkpoint_rows).toBe(2 * BATCH);
    expect(paused.disk_full_since_ms).toBe(t.engine.clock.nowMs());
    const staged = stagedPath(t.engine.dataDir, paused);
    // The rows of the batch that did not fit are cut at the next try; the committed ones stay.
    expect(statSync(staged).size).toBe(40_000);
    const status = await jobStatus(t.server.url, t.analyst.key, jobId);
    expect(status.message).toMatch(
      new RegExp(
        `^Retrying after: The disk is full: writing ${escape(staged)} needs about \\d+ MB more \\(\\d[\\d.,]* MB free on /.*\\)\\. ` +
          'Free space; the job resumes from its last checkpoint\\. It tries again every minute \\(full since .* UTC; it ends after 24 h\\)\\.$',
      ),
    );
    // The server answers reads while the job waits.
    const read = await t.server.request(`/social/tweets/${t.convo.level1[0]}`, { key: t.analyst.key });
    expect(read.status, read.text).toBe(200);

    // Still full a minute later, and an hour later: more pauses, no attempt used, the count kept.
    const since = paused.disk_full_since_ms;
    await nextTry(t, runner, jobId);
    await nextTry(t, runner, jobId, HOUR_MS);
    const still = getJob(t.engine.db, jobId)!;
    expect([still.status, still.attempts, still.checkpoint_rows, still.disk_full_since_ms]).toEqual(['pending', 0, 2 * BATCH, since]);

    diskFullAfter(t.engine.dataDir, null);
    await nextTry(t, runner, jobId);
    const end = await jobEnd(t.server.url, t.analyst.key, jobId);
    expect(end.status, end.message).toBe('success');
    const [, ...rows] = await csvRows(end);
    expect(rows.map((r) => r[0])).toEqual(t.convo.expected.map(String));
    expect(chargedRows(t, jobId)).toBe(t.convo.expected.length);
    expect(getJob(t.engine.db, jobId)!).toMatchObject({ charged_credits: t.convo.expected.length, attempts: 1, disk_full_since_ms: null });
    expect(existsSync(staged)).toBe(false);
    assertInvariants(t.engine.db);
  });

  it('ends the job after 24 h of a full disk, removing its unfinished file and voiding the rest of its hold', { timeout: 60_000 }, async () => {
    const t = await setup();
    diskFullAfter(t.engine.dataDir, 40_000);
    const runner = testRunner(t.engine, { mode: 'inline', batchRows: BATCH });
    const jobId = await startJob(t.server.url, t.analyst.key, `/social/tweets/${ROOT_ID}/comments/asyncJob`, { output_format: 'csv' });
    await settled(t, jobId);
    const staged = stagedPath(t.engine.dataDir, getJob(t.engine.db, jobId)!);
    // The machine slept: the next tries come 12 h apart.
    await nextTry(t, runner, jobId, 12 * HOUR_MS);
    expect(getJob(t.engine.db, jobId)!.status).toBe('pending');
    // What a finalize that met the full disk would have left beside the staged file: it goes too.
    writeFileSync(join(partialDir(t.engine.dataDir), `job${jobId}.tmp-replies-${ROOT_ID}-job${jobId}.csv.zip`), 'x'.repeat(4096));
    await nextTry(t, runner, jobId, 12 * HOUR_MS);
    const ended = await jobStatus(t.server.url, t.analyst.key, jobId);
    expect(ended.status).toBe('error');
    expect(ended.message).toMatch(
      new RegExp(`^The disk has been full since .* UTC \\(24 h\\): writing ${escape(staged)} needs about \\d+ MB more .*The job's unfinished file was removed; free space and retry the job\\.$`),
    );
    expect(getJob(t.engine.db, jobId)!.attempts).toBe(1);
    expect(readdirSync(partialDir(t.engine.dataDir))).toEqual([]);
    const [hold] = holdsOfJob(t.engine.db, jobId);
    expect(hold).toMatchObject({ posted: 2 * BATCH, open: false });
    expect(chargedRows(t, jobId)).toBe(2 * BATCH);
    assertInvariants(t.engine.db);
  });

  it("pauses on SQLite's own SQLITE_FULL, naming the database, and resumes once it can write", { timeout: 60_000 }, async () => {
    const t = await setup();
    const jobId = await startJob(t.server.url, t.analyst.key, `/social/tweets/${ROOT_ID}/comments/asyncJob`, { output_format: 'json' });
    // The database may not grow by a page: the first batch whose charge needs one is refused.
    const pages = t.engine.db.pragma('page_count', { simple: true }) as number;
    t.engine.db.pragma(`max_page_count = ${pages}`);
    const runner = testRunner(t.engine, { mode: 'inline', batchRows: 5 });
    await settled(t, jobId);
    const paused = getJob(t.engine.db, jobId)!;
    expect(paused.status, paused.last_error ?? '').toBe('pending');
    expect(paused.attempts, paused.last_error ?? '').toBe(0);
    expect(paused.last_error).toMatch(new RegExp(`^The disk is full: writing ${escape(join(t.engine.dataDir, 'skein.db'))} needs about \\d+ MB more`));
    t.engine.db.pragma(`max_page_count = ${2 ** 30}`);
    await nextTry(t, runner, jobId);
    const end = await jobEnd(t.server.url, t.analyst.key, jobId);
    expect(end.status, end.message).toBe('success');
    expect(chargedRows(t, jobId)).toBe(t.convo.expected.length);
    assertInvariants(t.engine.db);
  });
});

describe('unfinished files in Exports', () => {
  async function withApp() {
    const t = await setup();
    fund(t.engine, APP_USER_ID);
    const app = createHandlers(t.engine, { events: new EventHub(), mode: 'headless', apiUrl: () => t.server.url });
    const runner = testRunner(t.engine, { mode: 'inline', batchRows: BATCH });
    return { ...t, h: app.handlers, runner, close: () => app.close() };
  }

  it('lists what paused and ended jobs left, and removes a paused job\'s file: it collects again from row 0 and pays no row twice', { timeout: 60_000 }, async () => {
    const t = await withApp();
    diskFullAfter(t.engine.dataDir, 40_000);
    const params = { kind: 'replies' as const, tweet_id: ROOT_ID.toString(), output_format: 'csv' as const };
    const paused = (await t.h['jobs.create'](params)).job_id;
    await settled(t, paused);
    // A second job paused by the full disk, then cancelled while it waited: it ends in error, and
    // its file stays (a cancel of a waiting job has no data dir to clean: queue/cancel.ts).
    diskFullAfter(t.engine.dataDir, 10_000);
    const cancelled = (await t.h['jobs.create'](params)).job_id;
    t.runner.poke();
    await settled(t, cancelled);
    await t.h['jobs.cancel']({ job_id: cancelled });
    // And a file of no job at all.
    writeFileSync(join(partialDir(t.engine.dataDir), 'job999.csv'), 'x'.repeat(123));

    const listed = await t.h['exports.partials']();
    expect(listed.map((f) => [f.file_name, f.state, f.job_id, f.disk_full])).toEqual([
      [`job${paused}.csv`, 'waiting', paused, true],
      [`job${cancelled}.csv`, 'ended', cancelled, false],
      ['job999.csv', 'orphan', null, false],
    ]);
    expect(listed[0]!.bytes).toBe(statSync(stagedPath(t.engine.dataDir, getJob(t.engine.db, paused)!)).size);
    expect(listed[0]!.job_message).toMatch(/^The disk is full: writing /);
    expect(listed[1]).toMatchObject({ job_status: 'error', job_message: 'Cancelled by the user', bytes: 10_000 });

    // Only a listed name is removed: never a path.
    await expect(t.h['exports.removePartial']({ file_name: '../skein.db' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await t.h['exports.removePartial']({ file_name: `job${cancelled}.csv` })).toEqual({ removed: [`job${cancelled}.csv`], freed_bytes: 10_000, restarted_job: null });
    expect(await t.h['exports.removePartial']({ file_name: 'job999.csv' })).toMatchObject({ freed_bytes: 123, restarted_job: null });

    const before = getJob(t.engine.db, paused)!;
    expect([before.checkpoint_rows, before.charged_credits]).toEqual([2 * BATCH, 2 * BATCH]);
    const removed = await t.h['exports.removePartial']({ file_name: `job${paused}.csv` });
    expect(removed).toMatchObject({ removed: [`job${paused}.csv`], restarted_job: paused });
    expect(await t.h['exports.partials']()).toEqual([]);
    // Back to row 0 at once (the space is free now); the rows it paid for stay paid.
    const reset = getJob(t.engine.db, paused)!;
    expect(reset).toMatchObject({ status: 'pending', checkpoint_rows: 0, checkpoint_bytes: 0, progress: 0, phase: 'collect', charged_credits: 2 * BATCH });
    expect(reset.run_at_ms).toBeLessThanOrEqual(t.engine.clock.nowMs());

    diskFullAfter(t.engine.dataDir, null);
    t.runner.poke();
    await settled(t, paused);
    const job = await t.h['jobs.get']({ job_id: paused });
    expect(job.status, job.message ?? '').toBe('success');
    expect(job.credits_used).toBe(t.convo.expected.length);
    const [, ...rows] = await csvRows({ status: job.status, progress: job.progress, result: { datafile_url: job.result!.datafile_url, rows: 0 } });
    expect(rows.map((r) => r[0])).toEqual(t.convo.expected.map(String));
    expect(chargedRows(t, paused)).toBe(t.convo.expected.length);
    assertInvariants(t.engine.db);
    t.close();
  });

  it('restarts from row 0 a waiting job whose file was deleted by hand, instead of failing it', { timeout: 60_000 }, async () => {
    const t = await withApp();
    diskFullAfter(t.engine.dataDir, 40_000);
    const jobId = (await t.h['jobs.create']({ kind: 'replies', tweet_id: ROOT_ID.toString(), output_format: 'csv' })).job_id;
    await settled(t, jobId);
    expect(getJob(t.engine.db, jobId)!).toMatchObject({ status: 'pending', checkpoint_rows: 2 * BATCH, charged_credits: 2 * BATCH });
    rmSync(stagedPath(t.engine.dataDir, getJob(t.engine.db, jobId)!));
    diskFullAfter(t.engine.dataDir, null);
    await nextTry(t, t.runner, jobId);
    const end = getJob(t.engine.db, jobId)!;
    expect(end.status, end.last_error ?? '').toBe('success');
    expect(end.attempts).toBe(1);
    expect(chargedRows(t, jobId)).toBe(t.convo.expected.length);
    assertInvariants(t.engine.db);
    t.close();
  });
});
