import { describe, expect, it } from 'vitest';
import { envKeySource, setUpstreamConfig } from '../../src/main/engine/upstream';
import { balanceOf, checkInvariants } from '../../src/main/engine/ledger';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID } from '../fixtures/jobs-corpus';
import { chargedBy, csvRows, fundedKey, jobEnd, startJob, upstreamConversation } from '../helpers/upstream-jobs';

// Jobs through an upstream (issue 14): Skein B, with A as its upstream, pages A's synchronous
// search into its own corpus, then writes the file from there. The same job run on A itself is
// the reference: row for row, B's file must be A's.

const REPLIES = 5_000;

async function pair(profile: 'spec' | 'socialdata') {
  const { a, aServer, aKey, aLocal } = await upstreamConversation(REPLIES, 50);
  const b = testEngine({ upstreamKeys: envKeySource({ SKEIN_UPSTREAM_KEY: aKey.key }) });
  setUpstreamConfig(b.db, { url: aServer.url, profile, perMinute: 100_000 }, b.clock.nowMs());
  const bServer = await startServer(b);
  const bKey = fundedKey(b, 'analyst');
  testRunner(b);
  return { a, aServer, aKey, aLocal, b, bServer, bKey };
}

describe('jobs through an upstream', () => {
  it.each(['spec', 'socialdata'] as const)('profile %s: a 5,000-post search job through B matches the same job on A, row for row, each page paid once', { timeout: 240_000 }, async (profile) => {
    const p = await pair(profile);
    const body = { query: `conversation_id:${ROOT_ID}`, max_count: REPLIES + 200, output_format: 'csv' };
    const onA = await jobEnd(p.aServer.url, p.aLocal.key, await startJob(p.aServer.url, p.aLocal.key, '/social/search/asyncJob', body));
    const onB = await jobEnd(p.bServer.url, p.bKey.key, await startJob(p.bServer.url, p.bKey.key, '/social/search/asyncJob', body));
    expect(onB.status, onB.message).toBe('success');
    const rowsA = await csvRows(onA);
    const rowsB = await csvRows(onB);
    expect(rowsA.length).toBeGreaterThan(REPLIES);
    expect(rowsB).toEqual(rowsA);
    expect(new Set(rowsB.map((r) => r[0])).size).toBe(rowsB.length);
    expect(onB.upstream).toEqual({ pages: expect.any(Number), items: rowsA.length - 1, done: true });
    // Every job page went with an Idempotency-Key; A charged each once, as B's spend book says.
    const book = p.b.db.prepare('SELECT total(items) AS items, count(*) AS lines FROM upstream_spend WHERE job_id IS NOT NULL').get() as { items: number; lines: number };
    const charged = chargedBy(p.a, p.aKey.userId);
    expect(charged.idemLines).toBe(book.lines);
    expect(charged.idem).toBe(book.items);
    expect(book.lines).toBe(onB.upstream!.pages);
  });

  it('a reply job through B fetches the post it names, walks its conversation and writes the replies from B\'s corpus', { timeout: 240_000 }, async () => {
    const p = await pair('spec');
    const path = `/social/tweets/${ROOT_ID}/comments/asyncJob`;
    const onA = await jobEnd(p.aServer.url, p.aLocal.key, await startJob(p.aServer.url, p.aLocal.key, path, { output_format: 'csv', max_count: 3000 }));
    const onB = await jobEnd(p.bServer.url, p.bKey.key, await startJob(p.bServer.url, p.bKey.key, path, { output_format: 'csv', max_count: 3000 }));
    expect(onB.status, onB.message).toBe('success');
    expect(await csvRows(onB)).toEqual(await csvRows(onA));
  });

  it('a reply job without max_count through B writes every reply A writes, though B could count only reply_count when it started', { timeout: 240_000 }, async () => {
    const p = await pair('spec');
    const path = `/social/tweets/${ROOT_ID}/comments/asyncJob`;
    const onA = await jobEnd(p.aServer.url, p.aLocal.key, await startJob(p.aServer.url, p.aLocal.key, path, { output_format: 'csv' }));
    const jobId = await startJob(p.bServer.url, p.bKey.key, path, { output_format: 'csv' });
    const onB = await jobEnd(p.bServer.url, p.bKey.key, jobId);
    expect(onB.status, onB.message).toBe('success');
    const rowsA = await csvRows(onA);
    // 5,000 direct replies and 50 at level 2, where reply_count says 5,000.
    expect(rowsA.length - 1).toBe(REPLIES + 50);
    expect(await csvRows(onB)).toEqual(rowsA);
    // Charged a credit a row, from the first hold and its top-up; nothing left held, the ledger balanced.
    const job = getJob(p.b.db, jobId)!;
    expect([job.charged_credits, job.held_credits]).toEqual([REPLIES + 50, REPLIES + 50]);
    expect(balanceOf(p.b.db, p.bKey.userId).pending).toBe(0);
    expect(checkInvariants(p.b.db)).toEqual([]);
  });
});
