import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { getJob } from '../../src/main/engine/jobs';
import { dataFilePath } from '../../src/main/engine/exports/file-state';
import { partialDir } from '../../src/main/engine/jobs/files';
import { balanceOf, checkInvariants } from '../../src/main/engine/ledger';
import { createKey } from '../../src/main/engine/keys';
import { apiKey, fund } from '../fixtures/api-corpus';
import { allTransfers } from '../fixtures/finished-exports';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// Deleting a job (issue 15; our extension: Jobs > Delete job in the app, DELETE /jobs/<id>): the job
// leaves Jobs and Exports and its data file goes, its row stays as a tombstone so every ledger
// transfer keeps naming it and no later job reuses its id; a running job is refused until it has
// ended; GET /jobs/<id> of a deleted job is 410 Gone.

async function setup() {
  const engine = testEngine();
  writeConversation(engine.db, 30, 3);
  const key = apiKey(engine);
  fund(engine, APP_USER_ID);
  const server = await startServer(engine);
  const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => server.url });
  return { engine, key, server, h: app.handlers, app };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function finishedJob(t: Setup, body = 'output_format=csv'): Promise<{ jobId: number; url: string; path: string }> {
  const runner = testRunner(t.engine, { mode: 'inline' });
  const res = await t.server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob?${body}`, { method: 'POST', key: t.key });
  const jobId = (res.json() as { job_id: number }).job_id;
  await runner.idle();
  await runner.stop();
  const status = (await t.server.request(`/jobs/${jobId}`, { key: t.key })).json() as { status: string; result: { datafile_url: string } };
  expect(status.status).toBe('success');
  return { jobId, url: status.result.datafile_url, path: dataFilePath(t.engine.dataDir, getJob(t.engine.db, jobId)!) };
}

const ledgerOfJob = (t: Setup, jobId: number) => t.engine.db.prepare('SELECT * FROM ledger_transfers WHERE job_id = ? OR id LIKE ? ORDER BY seq').all(jobId, `job:${jobId}:%`);

describe('DELETE /jobs/<id>', () => {
  it('deletes a finished job and its file; the ledger keeps every transfer and still balances; GET answers 410', async () => {
    const t = await setup();
    const { jobId, url, path } = await finishedJob(t);
    const userId = getJob(t.engine.db, jobId)!.user_id;
    const transfers = allTransfers(t.engine);
    const charged = ledgerOfJob(t, jobId);
    expect(charged.length).toBeGreaterThanOrEqual(2); // its hold and its rows' charge
    const balance = balanceOf(t.engine.db, userId);
    const recorded = () => t.engine.db.prepare('SELECT count(*) FROM job_posts WHERE job_id = ?').pluck().get(jobId);
    expect(recorded()).toBe(getJob(t.engine.db, jobId)!.checkpoint_rows);
    expect(recorded()).toBeGreaterThan(0);
    t.engine.clock.advance(60_000);

    const res = await t.server.request(`/jobs/${jobId}`, { method: 'DELETE', key: t.key });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      job_id: jobId,
      deleted_at: new Date(t.engine.clock.nowMs()).toISOString(),
      file_deleted: `replies-${ROOT_ID}-job${jobId}.csv`,
      bytes_freed: expect.any(Number),
    });
    expect((res.json() as { bytes_freed: number }).bytes_freed).toBeGreaterThan(0);
    expect(existsSync(path)).toBe(false);

    // The ledger: not a transfer more or less, the same balance, every invariant (what doctor re-derives).
    expect(allTransfers(t.engine)).toEqual(transfers);
    expect(ledgerOfJob(t, jobId)).toEqual(charged);
    expect(balanceOf(t.engine.db, userId)).toEqual(balance);
    expect(checkInvariants(t.engine.db)).toEqual([]);
    // The record of its posts served only its overview, which goes with it (410, like GET).
    expect(recorded()).toBe(0);
    expect(await dispatch(t.h, 'overview.get', { job_id: jobId })).toMatchObject({ ok: false, error: { code: 'gone' } });

    const gone = await t.server.request(`/jobs/${jobId}`, { key: t.key });
    expect(gone.status).toBe(410);
    expect(gone.json()).toEqual({ status: 'error', message: `Job ${jobId} was deleted on ${new Date(t.engine.clock.nowMs()).toISOString().slice(0, 19).replace('T', ' ')} UTC (Jobs > Delete job in the app, or DELETE /jobs/${jobId}); its charges stay in the ledger.` });
    expect((await t.server.request(`/jobs/${jobId}`, { method: 'DELETE', key: t.key })).status).toBe(410);
    expect((await t.server.request(`/jobs/${jobId}/cancel`, { method: 'POST', key: t.key })).status).toBe(410);
    const file = await fetch(url);
    expect(file.status).toBe(410);
    expect(((await file.json()) as { message: string }).message).toMatch(/was deleted with its job on .* UTC \(Jobs > Delete job, or DELETE \/jobs\/<id>\); its charges stay in the ledger\./);

    // The id stays taken: the next job gets a new one, so its transfer ids never meet these.
    const { jobId: next } = await finishedJob(t);
    expect(next).toBe(jobId + 1);
    expect(checkInvariants(t.engine.db)).toEqual([]);
  });

  it('refuses a running job with 409 until it is cancelled, another user\'s job with 403, an unknown one with 404', async () => {
    const t = await setup();
    // No runner: the job stays pending.
    const res = await t.server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob`, { method: 'POST', key: t.key });
    const jobId = (res.json() as { job_id: number }).job_id;
    const running = await t.server.request(`/jobs/${jobId}`, { method: 'DELETE', key: t.key });
    expect(running.status).toBe(409);
    expect(running.json()).toEqual({ status: 'error', message: `Job ${jobId} is still running (pending): cancel it first, then delete it once it has ended.` });
    expect(getJob(t.engine.db, jobId)!.deleted_at_ms).toBeNull();

    const other = createKey(t.engine, 'someone-else').key;
    expect((await t.server.request(`/jobs/${jobId}`, { method: 'DELETE', key: other })).json()).toEqual({ status: 'error', message: `Job ${jobId} belongs to another user.` });
    expect((await t.server.request('/jobs/999', { method: 'DELETE', key: t.key })).status).toBe(404);
    expect((await t.server.request('/jobs/abc', { method: 'DELETE', key: t.key })).status).toBe(422);
    expect((await t.server.request(`/jobs/${jobId}`, { method: 'DELETE' })).status).toBe(401);

    expect((await t.server.request(`/jobs/${jobId}/cancel`, { method: 'POST', key: t.key })).status).toBe(200);
    const deleted = await t.server.request(`/jobs/${jobId}`, { method: 'DELETE', key: t.key });
    expect(deleted.status).toBe(200);
    // A cancelled job has no data file: nothing freed. Its hold was voided when it ended.
    expect(deleted.json()).toMatchObject({ job_id: jobId, file_deleted: null, bytes_freed: 0 });
    expect(checkInvariants(t.engine.db)).toEqual([]);
  });
});

describe('jobs.delete in the app', () => {
  it('takes the job out of Jobs and Exports with its file and what it left in .partial; jobs.get answers gone', async () => {
    const t = await setup();
    const { job_id } = await t.h['jobs.create']({ kind: 'search', query: `conversation_id:${ROOT_ID}`, max_count: 10, output_format: 'json' });
    const kept = await t.h['jobs.create']({ kind: 'search', query: `conversation_id:${ROOT_ID}`, max_count: 5, output_format: 'csv' });
    const runner = testRunner(t.engine, { mode: 'inline' });
    await runner.idle();
    await runner.stop();
    const file = (await t.h['exports.list']()).find((f) => f.job_id === job_id)!;
    expect(existsSync(file.path)).toBe(true);
    // What an ended job may leave in exports/.partial (a finalize that failed): it goes with the job.
    mkdirSync(partialDir(t.engine.dataDir), { recursive: true });
    const leftover = join(partialDir(t.engine.dataDir), `job${job_id}.json`);
    writeFileSync(leftover, '[');
    const transfers = allTransfers(t.engine);

    const deleted = await t.h['jobs.delete']({ job_id });
    expect(deleted).toEqual({ job_id, deleted_ms: t.engine.clock.nowMs(), file_name: file.file_name, bytes: file.bytes });
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(leftover)).toBe(false);
    expect((await t.h['jobs.list']()).map((j) => j.job_id)).toEqual([kept.job_id]);
    expect((await t.h['exports.list']()).map((f) => f.job_id)).toEqual([kept.job_id]);
    expect(allTransfers(t.engine)).toEqual(transfers);

    const get = await dispatch(t.h, 'jobs.get', { job_id });
    expect(get).toMatchObject({ ok: false, error: { code: 'gone', message: expect.stringMatching(`^Job ${job_id} was deleted on `) } });
    expect(await dispatch(t.h, 'jobs.retry', { job_id })).toMatchObject({ ok: false, error: { code: 'gone' } });
    expect(await dispatch(t.h, 'exports.preview', { job_id })).toMatchObject({ ok: false, error: { code: 'gone' } });
    expect(await dispatch(t.h, 'jobs.delete', { job_id })).toMatchObject({ ok: false, error: { code: 'gone' } });
    t.app.close();
  });

  it('leaves skein credits ledger and skein doctor as they were', async () => {
    const t = await setup();
    const { jobId } = await finishedJob(t);
    const dataDir = t.engine.dataDir;
    const ledger = async () => JSON.parse((await runCli('credits', 'ledger', '--user', 'tester', '--json', '--data-dir', dataDir)).out) as unknown;
    const before = await ledger();
    expect((await t.server.request(`/jobs/${jobId}`, { method: 'DELETE', key: t.key })).status).toBe(200);
    expect(await ledger()).toEqual(before);
    const doctor = await runCli('doctor', '--data-dir', dataDir);
    expect(doctor.out).toContain('The ledger is sound');
    expect(doctor.code, doctor.out).toBe(0);
  });
});
