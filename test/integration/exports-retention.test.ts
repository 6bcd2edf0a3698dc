import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { getJob, parseRepliesJob, submitJob, type JobRow } from '../../src/main/engine/jobs';
import { claimNextJob } from '../../src/main/engine/jobs/queue/claim';
import { dataFileName, exportsDir, partialDir, stagedPath } from '../../src/main/engine/jobs/files';
import { downloadStarted } from '../../src/main/engine/exports/downloads';
import { dataFilePath } from '../../src/main/engine/exports/file-state';
import { GB_BYTES, sizeText } from '../../src/main/engine/exports/retention-policy';
import { checkInvariants } from '../../src/main/engine/ledger';
import { statusOf } from '../../src/main/engine/errors';
import { fund } from '../fixtures/api-corpus';
import { allTransfers, finishedExport } from '../fixtures/finished-exports';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { join } from 'node:path';

// The retention setting (issue 13 point 18) on a real engine with a manual clock: jobs finish at
// set times (their files' finished_at_ms), then a setting is applied by the app's handler, by the
// runner at its start, after a job, and on its timer. Exactly the due files go, oldest first; a
// running job's output, a pending job's staged rows and a file being downloaded stay; the ledger
// is untouched.

const DAY_MS = 86_400_000;

async function setup() {
  const engine = testEngine();
  writeConversation(engine.db, 40, 3);
  fund(engine, APP_USER_ID);
  const runner = testRunner(engine, { mode: 'inline' });
  const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null });
  return { engine, runner, h: app.handlers, close: () => app.close() };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** Jobs finished on day 0, 1, 2, ... (one a day), `rows` rows each, oldest first. */
async function filesOnDays(t: Setup, rows: number[]): Promise<JobRow[]> {
  const jobs: JobRow[] = [];
  for (const [i, n] of rows.entries()) {
    if (i > 0) t.engine.clock.advance(DAY_MS);
    jobs.push(await finishedExport(t.engine, t.runner, APP_USER_ID, n));
  }
  return jobs;
}

const onDisk = (t: Setup, jobs: JobRow[]) => jobs.map((j) => existsSync(dataFilePath(t.engine.dataDir, j)));
const sizeOf = (t: Setup, j: JobRow) => getJob(t.engine.db, j.id)!.result_bytes!;

/** A running job whose finalize already renamed its data file into exports/ (it is committed next). */
async function runningJobWithFile(t: Setup): Promise<{ running: JobRow; pending: JobRow; files: string[] }> {
  await t.runner.stop();
  const submit = () => submitJob(t.engine, APP_USER_ID, 'replies', parseRepliesJob(t.engine.db, ROOT_ID.toString(), { output_format: 'csv' }));
  const runningId = submit();
  const running = claimNextJob(t.engine.db, 'test:1:r:0', t.engine.clock.nowMs())!;
  expect(running.id).toBe(runningId);
  const pending = getJob(t.engine.db, submit())!;
  const files = [join(exportsDir(t.engine.dataDir), dataFileName(running)), stagedPath(t.engine.dataDir, pending)];
  mkdirSync(partialDir(t.engine.dataDir), { recursive: true });
  for (const f of files) writeFileSync(f, 'x'.repeat(5_000));
  return { running, pending, files };
}

describe('export retention', () => {
  it('by days deletes exactly the files finished before now - N days, oldest first, and never a running job\'s', async () => {
    const t = await setup();
    const jobs = await filesOnDays(t, [5, 6, 7, 8, 9]); // days 0..4
    const { files } = await runningJobWithFile(t);
    t.engine.clock.advance(2 * DAY_MS); // day 6
    const transfers = allTransfers(t.engine);

    const preview = await t.h['exports.setRetention']({ keep: 'days', days: 4, dry_run: true });
    // Finished on day 0 and day 1: more than 4 days ago. Nothing saved or deleted yet.
    expect(preview.deleted.map((d) => d.job_id)).toEqual([jobs[0]!.id, jobs[1]!.id]);
    expect(onDisk(t, jobs)).toEqual([true, true, true, true, true]);
    expect((await t.h['exports.retention']()).policy).toEqual({ keep: 'all' });

    const saved = await t.h['exports.setRetention']({ keep: 'days', days: 4 });
    expect(saved.deleted).toEqual([
      { job_id: jobs[0]!.id, file_name: jobs[0]!.result_file, bytes: sizeOf(t, jobs[0]!), deleted_ms: t.engine.clock.nowMs(), deleted_by: 'retention' },
      { job_id: jobs[1]!.id, file_name: jobs[1]!.result_file, bytes: sizeOf(t, jobs[1]!), deleted_ms: t.engine.clock.nowMs(), deleted_by: 'retention' },
    ]);
    expect(onDisk(t, jobs)).toEqual([false, false, true, true, true]);
    expect(saved.state).toMatchObject({ policy: { keep: 'days', days: 4 }, policy_text: 'keep 4 days', files: 3 });
    expect(saved.state.bytes).toBe(jobs.slice(2).reduce((s, j) => s + sizeOf(t, j), 0));
    // The running job's file and the waiting job's staged rows stay, however old.
    expect(files.map((f) => existsSync(f))).toEqual([true, true]);
    expect(allTransfers(t.engine)).toEqual(transfers);
    expect(checkInvariants(t.engine.db)).toEqual([]);

    // One day later, the day-2 file is due too; the runner applies the saved setting at its start.
    t.engine.clock.advance(DAY_MS);
    const log: string[] = [];
    testRunner(t.engine, { mode: 'inline', log: (l) => log.push(l), concurrency: 1, pollMs: 60_000 });
    expect(onDisk(t, jobs)).toEqual([false, false, false, true, true]);
    expect(log).toEqual([
      `Skein: exports retention (keep 4 days) deleted 1 file, ${sizeText(sizeOf(t, jobs[2]!))}, at 2026-11-08 00:00:00 UTC: ${jobs[2]!.result_file} (job ${jobs[2]!.id}). The jobs and their charges stay.`,
    ]);
    expect(getJob(t.engine.db, jobs[2]!.id)).toMatchObject({ status: 'success', file_deleted_by: 'retention', file_deleted_at_ms: t.engine.clock.nowMs() });
    expect(files.map((f) => existsSync(f))).toEqual([true, true]);
    t.close();
  });

  it('by size keeps the newest files within N GB and deletes the oldest first; the newest always stays', async () => {
    const t = await setup();
    const jobs = await filesOnDays(t, [4, 9, 6, 3, 8]);
    const sizes = jobs.map((j) => sizeOf(t, j));
    expect(new Set(sizes).size).toBe(5);
    const transfers = allTransfers(t.engine);
    // Room for the newest three (days 2..4) but not the fourth: days 0 and 1 go.
    const gb = (sizes[2]! + sizes[3]! + sizes[4]! + sizes[1]! - 1) / GB_BYTES;
    const saved = await t.h['exports.setRetention']({ keep: 'gb', gb });
    expect(saved.deleted.map((d) => d.job_id)).toEqual([jobs[0]!.id, jobs[1]!.id]);
    expect(onDisk(t, jobs)).toEqual([false, false, true, true, true]);
    expect(saved.state.bytes).toBe(sizes[2]! + sizes[3]! + sizes[4]!);
    expect(saved.state.policy).toEqual({ keep: 'size', gb });

    // A limit below the newest file alone: every other file goes, the newest stays.
    const tiny = await t.h['exports.setRetention']({ keep: 'gb', gb: 1 / GB_BYTES });
    expect(tiny.deleted.map((d) => d.job_id)).toEqual([jobs[2]!.id, jobs[3]!.id]);
    expect(onDisk(t, jobs)).toEqual([false, false, false, false, true]);

    // Right after a job finishes, the setting is applied again: the new file is the newest, kept;
    // the one before it goes.
    t.engine.clock.advance(DAY_MS);
    const next = await finishedExport(t.engine, t.runner, APP_USER_ID, 5);
    expect(onDisk(t, [...jobs, next])).toEqual([false, false, false, false, false, true]);
    expect(getJob(t.engine.db, jobs[4]!.id)).toMatchObject({ file_deleted_by: 'retention' });
    // Keep all: nothing more is deleted, the deleted ones stay listed as deleted.
    const all = await t.h['exports.setRetention']({ keep: 'all' });
    expect(all.deleted).toEqual([]);
    const listed = await t.h['exports.list']();
    expect(listed.map((f) => [f.job_id, f.file_state, f.deleted_by])).toEqual([
      [next.id, 'kept', null],
      ...[...jobs].reverse().map((j) => [j.id, 'deleted', 'retention']),
    ]);
    // The ledger holds every transfer it had, plus the new job's own (hold, charges, release).
    expect(allTransfers(t.engine).slice(0, transfers.length)).toEqual(transfers);
    expect(checkInvariants(t.engine.db)).toEqual([]);
    t.close();
  });

  it('leaves a file being downloaded for the next sweep, and the timer sweeps again', async () => {
    const t = await setup();
    const jobs = await filesOnDays(t, [4, 5]);
    t.engine.clock.advance(10 * DAY_MS);
    const sending = downloadStarted(t.engine.db, jobs[0]!.id);
    const first = await t.h['exports.setRetention']({ keep: 'days', days: 1 });
    expect(first.deleted.map((d) => d.job_id)).toEqual([jobs[1]!.id]);
    expect(first.skipped).toEqual([{ job_id: jobs[0]!.id, file_name: jobs[0]!.result_file, why: 'being downloaded' }]);
    expect(onDisk(t, jobs)).toEqual([true, false]);
    sending();
    // The runner's timer (every 10 ms here, hourly by default) takes it once the download ended.
    const log: string[] = [];
    testRunner(t.engine, { mode: 'inline', retentionEveryMs: 10, log: (l) => log.push(l), pollMs: 60_000 });
    while (onDisk(t, jobs)[0]) await new Promise((r) => setTimeout(r, 5));
    expect(getJob(t.engine.db, jobs[0]!.id)).toMatchObject({ file_deleted_by: 'retention' });
    expect(log.join('\n')).toContain(`deleted 1 file, ${sizeText(sizeOf(t, jobs[0]!))}, at 2026-11-12 00:00:00 UTC: ${jobs[0]!.result_file} (job ${jobs[0]!.id})`);
    t.close();
  });

  it('refuses a bad setting with a clear 422 and changes nothing', async () => {
    const t = await setup();
    await filesOnDays(t, [4]);
    const cases: [unknown, string][] = [
      [{ keep: 'days', days: -3 }, "Invalid parameter 'days': expected a whole number of days from 1 to 36500, not -3."],
      [{ keep: 'days', days: 0 }, "Invalid parameter 'days': expected a whole number of days from 1 to 36500, not 0."],
      [{ keep: 'days', days: 1.5 }, "Invalid parameter 'days': expected a whole number of days from 1 to 36500, not 1.5."],
      [{ keep: 'days', days: '7 days' }, 'Invalid parameter \'days\': expected a number, not "7 days".'],
      [{ keep: 'days' }, "Missing required parameter 'days'."],
      [{ keep: 'gb', gb: 'abc' }, 'Invalid parameter \'gb\': expected a number, not "abc".'],
      [{ keep: 'gb', gb: 0 }, "Invalid parameter 'gb': expected a size in GB above 0 and up to 1,000,000, not 0."],
      [{ keep: 'gb', gb: -1 }, "Invalid parameter 'gb': expected a size in GB above 0 and up to 1,000,000, not -1."],
      [{ keep: 'gb', gb: 5, days: 3 }, "Invalid parameter 'days': only with keep 'days'."],
      [{ keep: 'forever' }, "Invalid parameter 'keep': expected one of all, days, gb."],
      [{ keep: 'all', dry_run: 'yes' }, "Invalid parameter 'dry_run': expected true or false."],
    ];
    for (const [args, message] of cases) {
      const r = await dispatch(t.h, 'exports.setRetention', args);
      expect(r, JSON.stringify(args)).toEqual({ ok: false, error: { code: 'invalid', message } });
      expect(statusOf.invalid).toBe(422);
    }
    expect(await t.h['exports.retention']()).toMatchObject({ policy: { keep: 'all' }, updated_ms: null, files: 1 });
    t.close();
  });
});
