import { describe, expect, it } from 'vitest';
import { envKeySource, setUpstreamConfig } from '../../src/main/engine/upstream';
import { balanceOf, checkInvariants } from '../../src/main/engine/ledger';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { testRunner } from '../fixtures/job-runner';
import { TIMELINE_USER, writeTimeline } from '../fixtures/timeline-corpus';
import { csvRows, fundedKey, jobEnd, startJob } from '../helpers/upstream-jobs';

// A timeline job through an upstream (issue 15): Skein B, whose corpus does not know the user,
// fetches the user from A (its statuses_count sets the hold), walks A's timeline pages into its
// own corpus, then writes the file from there. The same job run on A itself is the reference.

const POSTS = 1_000;

async function pair(profile: 'spec' | 'socialdata') {
  const a = testEngine();
  const timeline = writeTimeline(a.db, POSTS);
  const aServer = await startServer(a);
  const aKey = fundedKey(a, 'skein-b');
  const aLocal = fundedKey(a, 'reference');
  testRunner(a);
  const b = testEngine({ upstreamKeys: envKeySource({ SKEIN_UPSTREAM_KEY: aKey.key }) });
  setUpstreamConfig(b.db, { url: aServer.url, profile, perMinute: 100_000 }, b.clock.nowMs());
  const bServer = await startServer(b);
  const bKey = fundedKey(b, 'analyst');
  testRunner(b);
  return { a, aServer, aLocal, b, bServer, bKey, timeline };
}

describe('timeline jobs through an upstream', () => {
  it.each(['spec', 'socialdata'] as const)('profile %s: B writes the posts and replies A writes, row for row, holding what A reports', { timeout: 240_000 }, async (profile) => {
    const p = await pair(profile);
    const path = `/social/user/${TIMELINE_USER}/tweets-and-replies/asyncJob`;
    const onA = await jobEnd(p.aServer.url, p.aLocal.key, await startJob(p.aServer.url, p.aLocal.key, path, { output_format: 'csv' }));
    const jobId = await startJob(p.bServer.url, p.bKey.key, path, { output_format: 'csv' });
    const onB = await jobEnd(p.bServer.url, p.bKey.key, jobId);
    expect(onB.status, onB.message).toBe('success');
    const rowsA = await csvRows(onA);
    expect(rowsA.length - 1).toBe(POSTS);
    expect(await csvRows(onB)).toEqual(rowsA);
    expect(onB.upstream).toMatchObject({ items: POSTS, done: true });
    expect(getJob(p.b.db, jobId)).toMatchObject({ progress_total: POSTS, charged_credits: POSTS });
    expect(balanceOf(p.b.db, p.bKey.userId).pending).toBe(0);
    expect(checkInvariants(p.b.db)).toEqual([]);
  });

  it("a posts-only job holds the user's statuses_count, writes the posts, and says why it wrote fewer", { timeout: 240_000 }, async () => {
    const p = await pair('spec');
    const path = `/social/user/${TIMELINE_USER}/tweets/asyncJob`;
    const onA = await jobEnd(p.aServer.url, p.aLocal.key, await startJob(p.aServer.url, p.aLocal.key, path, { output_format: 'csv' }));
    const jobId = await startJob(p.bServer.url, p.bKey.key, path, { output_format: 'csv' });
    const onB = await jobEnd(p.bServer.url, p.bKey.key, jobId);
    expect(onB.status, onB.message).toBe('success');
    expect(await csvRows(onB)).toEqual(await csvRows(onA));
    expect(getJob(p.b.db, jobId)).toMatchObject({ progress_total: POSTS, charged_credits: p.timeline.tweets.length });
    expect(onB.message).toMatch(new RegExp(`^Collected ${p.timeline.tweets.length} posts: ${POSTS} were expected \\(the user's statuses_count`));
    expect(checkInvariants(p.b.db)).toEqual([]);
  });

  it('max_count through B stops the walk at max_count and writes the newest posts', { timeout: 240_000 }, async () => {
    const p = await pair('spec');
    const path = `/social/user/${TIMELINE_USER}/tweets-and-replies/asyncJob`;
    const onB = await jobEnd(p.bServer.url, p.bKey.key, await startJob(p.bServer.url, p.bKey.key, path, { output_format: 'csv', max_count: 50 }));
    expect(onB.status, onB.message).toBe('success');
    expect((await csvRows(onB)).slice(1).map((r) => r[0])).toEqual(p.timeline.all.slice(0, 50).map(String));
    // Pages of about 20: the walk stopped once it had 50, not at the end of the timeline.
    expect(onB.upstream!.pages).toBeLessThanOrEqual(3);
  });
});
