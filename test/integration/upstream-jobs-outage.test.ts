import { describe, expect, it } from 'vitest';
import { envKeySource, setUpstreamConfig } from '../../src/main/engine/upstream';
import { setUpstreamSleep } from '../../src/main/engine/upstream/gateway';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { retryAppJob } from '../../src/main/engine/handlers/jobs';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { fund } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { switchProxy } from '../helpers/switch-proxy';
import { csvRows, fundedKey, jobEnd, jobStatus, startJob, upstreamConversation } from '../helpers/upstream-jobs';

// An outage of the upstream under a running job, on B's manual clock (the inline runner walks on
// B's own connection, so its waits advance that clock): the job pauses without using its
// attempts for as long as the outage lasts, up to 24 h, and resumes at the first page it has not
// stored; after 24 h it ends, and Retry goes on from the same page without paying twice.

const REPLIES = 600;
const HOUR_MS = 3_600_000;

async function setup() {
  const { aServer, aKey, aLocal } = await upstreamConversation(REPLIES, 10);
  const proxy = await switchProxy(aServer.url);
  const b = testEngine({ upstreamKeys: envKeySource({ SKEIN_UPSTREAM_KEY: aKey.key }) });
  setUpstreamConfig(b.db, { url: proxy.url, profile: 'spec', perMinute: 100_000 }, b.clock.nowMs());
  setUpstreamSleep(b, async (ms) => b.clock.advance(ms));
  const bServer = await startServer(b);
  const bKey = fundedKey(b, 'analyst');
  const runner = testRunner(b, { mode: 'inline' });
  const body = { query: `conversation_id:${ROOT_ID}`, max_count: 5_000, output_format: 'csv' };
  const reference = await jobEnd(aServer.url, aLocal.key, await startJob(aServer.url, aLocal.key, '/social/search/asyncJob', body));
  return { proxy, b, bServer, bKey, runner, body, reference };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

/** Lets the job's pause run out on B's clock and waits for the try that follows to end. */
async function nextTry(t: Setup, jobId: number): Promise<void> {
  const job = getJob(t.b.db, jobId)!;
  t.b.clock.set(Math.max(t.b.clock.nowMs(), job.run_at_ms));
  t.runner.poke();
  await until(() => {
    const now = getJob(t.b.db, jobId)!;
    return now.status === 'success' || now.status === 'error' || (now.status === 'pending' && now.run_at_ms > t.b.clock.nowMs());
  });
}

async function pausedAfterPages(t: Setup, jobId: number, pages: number) {
  await until(() => (t.b.db.prepare('SELECT pages FROM job_upstream WHERE job_id = ?').pluck().get(jobId) as number) >= pages);
  t.proxy.set('500');
  await until(() => getJob(t.b.db, jobId)!.status === 'pending' && getJob(t.b.db, jobId)!.last_error !== null);
}

describe('a job through an upstream that is down for hours', () => {
  it('pauses without using its attempts, says since when, and resumes from its last stored page', { timeout: 120_000 }, async () => {
    const t = await setup();
    const jobId = await startJob(t.bServer.url, t.bKey.key, '/social/search/asyncJob', t.body);
    await pausedAfterPages(t, jobId, 3);
    const outageStart = new Date(t.b.clock.nowMs()).toISOString().slice(0, 19).replace('T', ' ');
    const attempts = getJob(t.b.db, jobId)!.attempts;
    const paused = await jobStatus(t.bServer.url, t.bKey.key, jobId);
    expect(paused.message).toMatch(/^Retrying after: Waiting for the upstream \(unavailable since .* UTC; next try at .* UTC\): .*HTTP 500 The platform is having a bad day\..*resumes at page \d+, after the \d+ pages it stored/);
    const pagesBefore = paused.upstream!.pages;
    // Six hours of outage: far more tries than the job's 5 attempts, none of them used.
    let tries = 0;
    const outageEndMs = t.b.clock.nowMs() + 6 * HOUR_MS;
    while (t.b.clock.nowMs() < outageEndMs) {
      await nextTry(t, jobId);
      tries++;
      const job = getJob(t.b.db, jobId)!;
      expect(job.status, job.last_error ?? '').toBe('pending');
      expect(job.attempts).toBe(attempts);
      // The pause grows with the outage, from 15 s to 5 min, never longer.
      expect(job.run_at_ms - t.b.clock.nowMs()).toBeLessThanOrEqual(5 * 60_000);
    }
    expect(tries).toBeGreaterThan(60);
    expect(getJob(t.b.db, jobId)!.last_error).toContain(`unavailable since ${outageStart} UTC`);
    const passedBefore = t.proxy.passed();
    t.proxy.set('pass');
    await nextTry(t, jobId);
    const end = await jobEnd(t.bServer.url, t.bKey.key, jobId);
    expect(end.status, end.message).toBe('success');
    expect(await csvRows(end)).toEqual(await csvRows(t.reference));
    // No stored page was asked for again: the pages after the outage are exactly the rest.
    expect(t.proxy.passed() - passedBefore).toBe(end.upstream!.pages - pagesBefore);
  });

  it('ends after 24 h with the page it stopped at, and Retry goes on from there paying nothing twice', { timeout: 120_000 }, async () => {
    const t = await setup();
    fund(t.b, APP_USER_ID);
    const jobId = await startJob(t.bServer.url, t.bKey.key, '/social/search/asyncJob', t.body);
    await pausedAfterPages(t, jobId, 4);
    const stored = t.b.db.prepare('SELECT pages FROM job_upstream WHERE job_id = ?').pluck().get(jobId) as number;
    const dayEndMs = t.b.clock.nowMs() + 24 * HOUR_MS;
    while (getJob(t.b.db, jobId)!.status === 'pending') {
      await nextTry(t, jobId);
      expect(t.b.clock.nowMs()).toBeLessThan(dayEndMs + 10 * 60_000);
    }
    const ended = await jobStatus(t.bServer.url, t.bKey.key, jobId);
    expect(ended.status).toBe('error');
    expect(ended.message).toMatch(new RegExp(`unavailable since .* UTC \\(24 h\\): .*HTTP 500.* Retry the job to resume at page ${stored + 1}; the ${stored} pages stored are kept`));
    t.proxy.set('pass');
    const passedBefore = t.proxy.passed();
    const { job_id: retried } = await retryAppJob(t.b, { job_id: jobId });
    t.runner.poke();
    await until(() => ['success', 'error'].includes(getJob(t.b.db, retried)!.status));
    const end = getJob(t.b.db, retried)!;
    expect(end.status, end.last_error ?? '').toBe('success');
    const walk = t.b.db.prepare('SELECT pages FROM job_upstream WHERE job_id = ?').pluck().get(retried) as number;
    expect(t.proxy.passed() - passedBefore).toBe(walk - stored);
    expect(end.result_rows).toBe(REPLIES + 10 * 2 + 1);
    // Each page was booked once: the first job's pages under its id, the rest under the retry's.
    const booked = t.b.db.prepare("SELECT count(*) FROM upstream_spend WHERE id LIKE 'job:%'").pluck().get() as number;
    expect(booked).toBe(walk);
  });
});
