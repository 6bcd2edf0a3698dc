import { describe, expect, it, onTestFinished } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { tempDir } from '../helpers/temp';
import { revokeKey } from '../../src/main/engine/keys';
import { balanceOf, charge } from '../../src/main/engine/ledger';
import { envKeySource, getUpstreamConfig, setUpstreamConfig } from '../../src/main/engine/upstream';
import { startServer } from '../helpers/http';
import { switchProxy } from '../helpers/switch-proxy';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID } from '../fixtures/jobs-corpus';
import { fundedKey, jobEnd, jobStatus, startJob, upstreamConversation } from '../helpers/upstream-jobs';

// A job walking an upstream that fails under it: 429s are waited out; a revoked key and an empty
// balance end it with the reason. An outage: upstream-jobs-outage.test.ts.

const REPLIES = 600;

async function setup() {
  const { a, aServer, aKey, aLocal } = await upstreamConversation(REPLIES, 10);
  const proxy = await switchProxy(aServer.url);
  // B on the system clock: its worker threads run on it, and a paused job's retry time must come
  // round in the runner's eyes too.
  const b = createEngine({ dataDir: tempDir(), upstreamKeys: envKeySource({ SKEIN_UPSTREAM_KEY: aKey.key }) });
  onTestFinished(() => b.close());
  setUpstreamConfig(b.db, { url: proxy.url, profile: 'spec', perMinute: 100_000 }, b.clock.nowMs());
  const bServer = await startServer(b);
  const bKey = fundedKey(b, 'analyst');
  // Real time in B's runner: its retry backoff (2 s after the first failed attempt) passes for real.
  testRunner(b);
  const body = { query: `conversation_id:${ROOT_ID}`, max_count: 5_000, output_format: 'csv' };
  return { a, aServer, aKey, aLocal, proxy, b, bServer, bKey, body };
}

async function untilPages(url: string, key: string, jobId: number, pages: number) {
  for (;;) {
    const s = await jobStatus(url, key, jobId);
    if ((s.upstream?.pages ?? 0) >= pages || s.status === 'success' || s.status === 'error') return s;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a job through a failing upstream', () => {
  it('429 answers are waited out and the walk goes on', { timeout: 120_000 }, async () => {
    const t = await setup();
    const jobId = await startJob(t.bServer.url, t.bKey.key, '/social/search/asyncJob', t.body);
    await untilPages(t.bServer.url, t.bKey.key, jobId, 2);
    t.proxy.set('429');
    while (t.proxy.refused() < 3) await new Promise((r) => setTimeout(r, 5));
    t.proxy.set('pass');
    const end = await jobEnd(t.bServer.url, t.bKey.key, jobId);
    expect(end.status, end.message).toBe('success');
    expect(end.result!.rows).toBe(REPLIES + 10 * 2 + 1);
  });

  it('a revoked key ends the job with the upstream\'s reason and marks the key invalid', { timeout: 60_000 }, async () => {
    const t = await setup();
    revokeKey(t.a, t.aKey.key);
    const end = await jobEnd(t.bServer.url, t.bKey.key, await startJob(t.bServer.url, t.bKey.key, '/social/search/asyncJob', t.body));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(/The upstream refused the API key \(HTTP 401\)/);
    expect(end.message).not.toContain(t.aKey.key);
    expect(getUpstreamConfig(t.b.db)!.keyStatus).toBe('invalid');
  });

  it('an empty upstream balance (402) ends the job with the upstream\'s own message', { timeout: 60_000 }, async () => {
    const t = await setup();
    // Leave A's key 50 credits: two pages and then 402.
    const available = balanceOf(t.a.db, t.aKey.userId).available;
    charge(t.a.db, { transferId: 'test:drain', userId: t.aKey.userId, amount: available - 50, nowMs: t.a.clock.nowMs() });
    const end = await jobEnd(t.bServer.url, t.bKey.key, await startJob(t.bServer.url, t.bKey.key, '/social/search/asyncJob', t.body));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(/The upstream account is out of balance \(HTTP 402\): .*credit/i);
  });
});
