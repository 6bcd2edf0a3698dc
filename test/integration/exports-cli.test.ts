import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/main/engine/clock';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { getJob, parseRepliesJob, submitJob } from '../../src/main/engine/jobs';
import { dataFilePath } from '../../src/main/engine/exports/file-state';
import { checkInvariants } from '../../src/main/engine/ledger';
import { fund } from '../fixtures/api-corpus';
import { allTransfers, finishedExport } from '../fixtures/finished-exports';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { runCli as run } from '../helpers/cli';
import { testEngine } from '../helpers/engine';

// `skein exports list|delete|retention` against the data dir of a running engine (its own
// connection), as an analyst runs it beside the app. The CLI reads the system clock, so the jobs
// finish at real times: one ten days ago, one now.

async function setup() {
  const engine = testEngine({ clock: new ManualClock(Date.now() - 10 * 86_400_000) });
  writeConversation(engine.db, 20, 2);
  fund(engine, APP_USER_ID);
  const runner = testRunner(engine, { mode: 'inline' });
  const old = await finishedExport(engine, runner, APP_USER_ID, 4);
  engine.clock.set(Date.now());
  const recent = await finishedExport(engine, runner, APP_USER_ID, 6, 'json');
  return { engine, runner, old, recent, dir: engine.dataDir };
}

describe('skein exports', () => {
  it('lists the files, deletes one (job and ledger stay), and sets the retention, which applies at once', async () => {
    const t = await setup();
    const transfers = allTransfers(t.engine);
    const list = await run('exports', 'list', '--data-dir', t.dir);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(/^2 files kept, [\d.]+ KB; retention: keep every file\.$/m);
    expect(list.out).toContain(`${t.recent.result_file}  kept`);
    const json = JSON.parse((await run('exports', 'list', '--json', '--data-dir', t.dir)).out) as { retention: { files: number }; files: { job_id: number; file_state: string }[] };
    expect(json.retention.files).toBe(2);
    expect(json.files.map((f) => [f.job_id, f.file_state])).toEqual([[t.recent.id, 'kept'], [t.old.id, 'kept']]);

    const deleted = await run('exports', 'delete', String(t.recent.id), '--data-dir', t.dir);
    expect(deleted.code, deleted.err).toBe(0);
    expect(deleted.out).toMatch(new RegExp(`^Deleted ${t.recent.result_file} \\(job ${t.recent.id}\\): [\\d.]+ (B|KB) freed\\. The job and its charges stay; its data file URL now answers 410 Gone\\.$`));
    expect(existsSync(dataFilePath(t.dir, t.recent))).toBe(false);
    expect(getJob(t.engine.db, t.recent.id)).toMatchObject({ status: 'success', file_deleted_by: 'user' });
    expect((await run('exports', 'list', '--data-dir', t.dir)).out).toMatch(new RegExp(`${t.recent.result_file}  deleted \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC \\(by you\\)`));

    // --dry-run says what a setting would delete and changes nothing.
    const dry = await run('exports', 'retention', '--days', '3', '--dry-run', '--data-dir', t.dir);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toBe(`Setting this would delete 1 file now (${dry.out.match(/\(([^)]+)\)/)![1]}):\n  job ${t.old.id}  ${t.old.result_file}`);
    expect(existsSync(dataFilePath(t.dir, t.old))).toBe(true);

    const set = await run('exports', 'retention', '--days', '3', '--data-dir', t.dir);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain(`Retention: keep 3 days. Deleted 1 file now`);
    expect(set.out).toContain(`  job ${t.old.id}  ${t.old.result_file}`);
    expect(existsSync(dataFilePath(t.dir, t.old))).toBe(false);
    expect(getJob(t.engine.db, t.old.id)).toMatchObject({ file_deleted_by: 'retention' });
    expect((await run('exports', 'retention', '--data-dir', t.dir)).out).toBe('Retention: keep 3 days. 0 files kept, 0 B.');
    expect((await run('exports', 'retention', '--gb', '2.5', '--data-dir', t.dir)).out).toContain('Retention: keep at most 2.5 GB. No file is due now.');
    expect((await run('exports', 'retention', '--keep', 'all', '--data-dir', t.dir)).out).toContain('Retention: keep every file.');

    // Both jobs stay, and the ledger is as it was.
    expect([t.old.id, t.recent.id].map((id) => getJob(t.engine.db, id)!.status)).toEqual(['success', 'success']);
    expect(allTransfers(t.engine)).toEqual(transfers);
    expect(checkInvariants(t.engine.db)).toEqual([]);
  });

  it('refuses an unknown, running or deleted job and a bad setting with a clear message and exit code 1', async () => {
    const t = await setup();
    await t.runner.stop();
    const pending = submitJob(t.engine, APP_USER_ID, 'replies', parseRepliesJob(t.engine.db, ROOT_ID.toString(), {}));
    await run('exports', 'delete', String(t.old.id), '--data-dir', t.dir);
    for (const [args, words] of [
      [['delete', '999'], 'Job 999 was not found.'],
      [['delete', String(pending)], `Job ${pending} is still running (pending)`],
      [['delete', String(t.old.id)], `Already deleted. The data file of job ${t.old.id}`],
      [['delete', 'abc'], "Invalid parameter 'job_id'"],
      [['retention', '--days=-3'], "Invalid parameter 'days': expected a whole number of days from 1 to 36500, not -3."],
      [['retention', '--days', '0'], "Invalid parameter 'days'"],
      [['retention', '--gb', 'abc'], 'Invalid parameter \'gb\': expected a number, not "abc".'],
      [['retention', '--gb', '0'], "Invalid parameter 'gb': expected a size in GB above 0"],
      [['retention', '--keep', 'forever'], "Invalid parameter 'keep': expected one of all, days, gb."],
      [['retention', '--days', '3', '--gb', '1'], "Invalid parameter 'gb': only with keep 'gb'."],
    ] as const) {
      const r = await run('exports', ...args, '--data-dir', t.dir);
      expect(r.code, `${args.join(' ')}: ${r.out}`).toBe(1);
      expect(r.err).toContain(words);
    }
    // Usage mistakes (no job id, an unknown subcommand) are exit code 2, as for every command.
    expect((await run('exports', 'delete', '--data-dir', t.dir)).code).toBe(2);
    expect((await run('exports', 'prune', '--data-dir', t.dir)).code).toBe(2);
    expect((await run('exports', 'retention', '--data-dir', t.dir)).out).toMatch(/^Retention: keep every file\. 1 file kept, [\d.]+ (B|KB)\.$/);
    expect(existsSync(dataFilePath(t.dir, t.recent))).toBe(true);
  });
});
