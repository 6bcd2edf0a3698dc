import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { statusOf } from '../../src/main/engine/errors';
import { createHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { getJob, parseRepliesJob, submitJob } from '../../src/main/engine/jobs';
import { claimNextJob } from '../../src/main/engine/jobs/queue/claim';
import { dataFilePath } from '../../src/main/engine/exports/file-state';
import { checkInvariants } from '../../src/main/engine/ledger';
import { apiKey, fund } from '../fixtures/api-corpus';
import { allTransfers } from '../fixtures/finished-exports';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// Deleting one finished data file (issue 13 point 18), through the app's handlers on a real engine
// (SQLite and files in a temp dir) with the real HTTP server: the file goes, the job row and every
// ledger transfer stay, and the file's URL answers 410 Gone in the spec's error body.

async function setup() {
  const engine = testEngine();
  writeConversation(engine.db, 30, 3);
  const key = apiKey(engine);
  fund(engine, APP_USER_ID);
  const server = await startServer(engine);
  const runner = testRunner(engine, { mode: 'inline' });
  const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => server.url });
  return { engine, key, server, runner, h: app.handlers, app };
}

const row = (engine: ReturnType<typeof testEngine>, jobId: number) => {
  const { file_deleted_at_ms: _at, file_deleted_by: _by, ...rest } = getJob(engine.db, jobId)!;
  return rest;
};

describe('deleting an export file', () => {
  it('removes the file, keeps the job row and the ledger, and its URL answers 410 with the spec body', async () => {
    const t = await setup();
    const res = await t.server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob?output_format=csv`, { method: 'POST', key: t.key });
    const jobId = (res.json() as { job_id: number }).job_id;
    await t.runner.idle();
    const status = (await t.server.request(`/jobs/${jobId}`, { key: t.key })).json() as { result: { datafile_url: string; file_name: string } };
    const url = status.result.datafile_url;
    expect((await fetch(url)).status).toBe(200);
    const path = dataFilePath(t.engine.dataDir, getJob(t.engine.db, jobId)!);
    const size = statSync(path).size;

    const rowBefore = row(t.engine, jobId);
    const transfersBefore = allTransfers(t.engine);
    expect(checkInvariants(t.engine.db)).toEqual([]);
    t.engine.clock.advance(3_600_000);

    const deleted = await t.h['exports.delete']({ job_id: jobId });
    expect(deleted).toEqual({ job_id: jobId, file_name: status.result.file_name, bytes: size, deleted_ms: t.engine.clock.nowMs(), deleted_by: 'user' });
    expect(existsSync(path)).toBe(false);
    // The job row is as it was (status, charges, token, result), with only the two new columns set.
    expect(row(t.engine, jobId)).toEqual(rowBefore);
    expect(getJob(t.engine.db, jobId)).toMatchObject({ file_deleted_at_ms: t.engine.clock.nowMs(), file_deleted_by: 'user' });
    // Every ledger transfer stays, and the books still balance.
    expect(allTransfers(t.engine)).toEqual(transfersBefore);
    expect(transfersBefore.length).toBeGreaterThan(0);
    expect(checkInvariants(t.engine.db)).toEqual([]);

    // The URL: 410 Gone, in the spec's error body (section 2.7), saying when and what to do.
    const gone = await fetch(url);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await gone.json()).toEqual({
      status: 'error',
      message:
        `The data file of job ${jobId} (${status.result.file_name}) was deleted on 2026-11-01 01:00:00 UTC in Skein (Exports > Delete); ` +
        'the job and its charges stay. Run the job again for a new file (Jobs > Retry in the app, or the same POST).',
    });
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(410);

    // The job still answers as a success with its result, which now says when the file went.
    const after = (await t.server.request(`/jobs/${jobId}`, { key: t.key })).json() as { status: string; result: Record<string, unknown> };
    expect(after.status).toBe('success');
    expect(after.result).toMatchObject({ datafile_url: url, file_deleted_at: '2026-11-01T01:00:00.000Z', file_deleted_by: 'user' });
    // The app lists the job and the file, marked deleted, rather than losing them.
    expect((await t.h['jobs.list']()).find((j) => j.job_id === jobId)?.result).toMatchObject({ file_deleted_ms: t.engine.clock.nowMs(), file_deleted_by: 'user' });
    expect((await t.h['exports.list']()).find((f) => f.job_id === jobId)).toMatchObject({ file_state: 'deleted', deleted_ms: t.engine.clock.nowMs(), deleted_by: 'user', bytes: size });
    await expect(t.h['exports.preview']({ job_id: jobId })).rejects.toMatchObject({ code: 'gone' });
    expect((await t.h['exports.retention']()).files).toBe(0);
    t.app.close();
  });

  it('refuses an unknown job, a running or failed one, one already deleted and a bad id with clear 4xx errors', async () => {
    const t = await setup();
    const done = submitJob(t.engine, APP_USER_ID, 'replies', parseRepliesJob(t.engine.db, ROOT_ID.toString(), { output_format: 'json' }));
    await t.runner.idle();
    await t.runner.stop();
    const submit = () => submitJob(t.engine, APP_USER_ID, 'replies', parseRepliesJob(t.engine.db, ROOT_ID.toString(), {}));
    const running = submit();
    expect(claimNextJob(t.engine.db, 'test:1:r:0', t.engine.clock.nowMs())?.id).toBe(running);
    const pending = submit();
    const failed = submit();
    await t.h['jobs.cancel']({ job_id: failed }); // a waiting job's cancel ends it in error at once
    expect([running, pending, failed].map((id) => getJob(t.engine.db, id)!.status)).toEqual(['processing', 'pending', 'error']);
    await t.h['exports.delete']({ job_id: done });

    const cases: [unknown, number, string][] = [
      [{ job_id: 999 }, 404, 'Job 999 was not found.'],
      [{ job_id: running }, 409, `Job ${running} is still running (processing): it has no data file until it finishes.`],
      [{ job_id: pending }, 409, `Job ${pending} is still running (pending)`],
      [{ job_id: failed }, 404, `Job ${failed} ended in error and has no data file.`],
      [{ job_id: done }, 410, `Already deleted. The data file of job ${done} (replies-${ROOT_ID}-job${done}.json) was deleted on 2026-11-01 00:00:00 UTC in Skein (Exports > Delete)`],
      [{ job_id: 'abc' }, 422, "Invalid parameter 'job_id': expected a whole number"],
      [{}, 422, "Missing required parameter 'job_id'."],
    ];
    for (const [args, status, message] of cases) {
      const r = await dispatch(t.h, 'exports.delete', args);
      expect(r.ok, JSON.stringify(args)).toBe(false);
      if (r.ok) continue;
      expect(statusOf[r.error.code as keyof typeof statusOf], JSON.stringify(args)).toBe(status);
      expect(r.error.message).toContain(message);
    }
    expect(checkInvariants(t.engine.db)).toEqual([]);
    t.app.close();
  });
});
