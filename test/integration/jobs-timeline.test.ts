import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { parseTimelineJob } from '../../src/main/engine/jobs';
import { stagedPath } from '../../src/main/engine/jobs/files';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { claimNextJob } from '../../src/main/engine/jobs/queue/claim';
import { createJob } from '../../src/main/engine/jobs/queue/create';
import { recoverStaleLocks, runnerOwner } from '../../src/main/engine/jobs/queue/recover';
import { runJob, type RunContext } from '../../src/main/engine/jobs/run-job';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, checkInvariants, holdsOfJob } from '../../src/main/engine/ledger';
import { expectEachRowChargedOnce } from '../helpers/job-charges';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey } from '../fixtures/api-corpus';
import { parseCsv, readXlsx } from '../fixtures/data-files';
import { testRunner } from '../fixtures/job-runner';
import { OTHER_USER, PROTECTED_USER, TIMELINE_BASE, TIMELINE_USER, writeTimeline } from '../fixtures/timeline-corpus';

// A user's timeline to a file (issue 15; our extension): POST /social/user/<user_id>/tweets/asyncJob
// and .../tweets-and-replies/asyncJob, validated like the spec's two kinds, charged a credit a row
// from the hold, in every output format, resumed after a stop without a row written or charged twice.

const POSTS = 45;
const path = (user: string, timeline = 'tweets') => `/social/user/${user}/${timeline}/asyncJob`;

async function setup() {
  const engine = testEngine();
  const timeline = writeTimeline(engine.db, POSTS);
  const key = apiKey(engine);
  const userId = (engine.db.prepare("SELECT id FROM api_users WHERE name = 'tester'").pluck().get() as number);
  const server = await startServer(engine);
  return { engine, timeline, key, userId, server };
}

async function untilEnded(server: Awaited<ReturnType<typeof startServer>>, key: string, jobId: number) {
  for (;;) {
    const res = await server.request(`/jobs/${jobId}`, { key });
    const body = res.json() as { status: string; message?: string; kind: string; progress: number; progress_total: number; result?: { datafile_url: string; rows: number; file_name: string } };
    if (body.status === 'success' || body.status === 'error') return body;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('timeline jobs over HTTP', () => {
  it("writes the user's posts that are not replies, newest first, and charges 1 + a credit a row", async () => {
    const { engine, timeline, key, userId, server } = await setup();
    testRunner(engine, { mode: 'inline' });
    const before = balanceOf(engine.db, userId).available;
    const res = await server.request(path(TIMELINE_USER), { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ output_format: 'csv', csv_dialect: 'plain', name: 'Her posts' }) });
    expect(res.status, res.text).toBe(200);
    const jobId = (res.json() as { job_id: number }).job_id;
    const done = await untilEnded(server, key, jobId);
    expect(done).toMatchObject({ status: 'success', kind: 'timeline', progress: timeline.tweets.length, progress_total: timeline.tweets.length });
    expect(done.result!.file_name).toBe(`timeline-${TIMELINE_USER}-job${jobId}.csv`);
    const rows = parseCsv(await (await fetch(done.result!.datafile_url)).text());
    expect(rows.slice(1).map((r) => r[0])).toEqual(timeline.tweets.map(String));
    // The hold was exactly the posts the corpus holds for this timeline: nothing left to release.
    expect(balanceOf(engine.db, userId)).toMatchObject({ available: before - 1 - timeline.tweets.length, pending: 0 });
    expectEachRowChargedOnce(engine.db, jobId, timeline.tweets.length);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('tweets-and-replies with max_count writes the newest max_count posts, replies included (xlsx)', async () => {
    const { engine, timeline, key, server } = await setup();
    testRunner(engine, { mode: 'inline' });
    const res = await server.request(`${path(TIMELINE_USER, 'tweets-and-replies')}?max_count=7&output_format=xlsx`, { method: 'POST', key });
    expect(res.status, res.text).toBe(200);
    const done = await untilEnded(server, key, (res.json() as { job_id: number }).job_id);
    expect(done).toMatchObject({ status: 'success', progress: 7, progress_total: 7 });
    const { rows } = await readXlsx(Buffer.from(await (await fetch(done.result!.datafile_url)).arrayBuffer()));
    expect(rows.slice(1).map((r) => String(r[0]))).toEqual(timeline.all.slice(0, 7).map(String));
    expect(timeline.all.slice(0, 7).some((id) => !timeline.tweets.includes(id))).toBe(true);
  });

  it.each([
    [path('7399999999999999999'), {}, 404, 'User 7399999999999999999 was not found.'],
    [path(PROTECTED_USER), {}, 403, `User ${PROTECTED_USER}'s profile is protected: its timeline is not available.`],
    [path('@tl1'), {}, 422, "Invalid parameter 'user_id'"],
    [path(TIMELINE_USER), { since_id: '1' }, 422, "Invalid parameter 'since_id': unknown parameter (this endpoint takes max_count, compress, output_format, csv_dialect, gexf_dynamic, name)."],
    [path(TIMELINE_USER), { output_format: 'xlsx', csv_dialect: 'plain' }, 422, "Invalid parameter 'csv_dialect': applies to output_format=csv only"],
    [path(TIMELINE_USER), { max_count: 0 }, 422, "Invalid parameter 'max_count'"],
    [path(TIMELINE_USER), { output_format: 'graphml' }, 422, "Invalid parameter 'output_format'"],
  ])('refuses %s %j with %i in the spec error shape, and creates and charges nothing', async (route, body, status, message) => {
    const { engine, key, userId, server } = await setup();
    const before = balanceOf(engine.db, userId).available;
    const res = await server.request(route, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(status);
    const error = res.json() as { status: string; message: string };
    expect(error.status).toBe('error');
    expect(error.message.startsWith(message), error.message).toBe(true);
    expect(engine.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(0);
    expect(balanceOf(engine.db, userId).available).toBe(before);
  });

  it('a user whose account turned protected while the job waited ends the job with the reason', async () => {
    const { engine, key, server } = await setup();
    const res = await server.request(path(TIMELINE_USER), { method: 'POST', key });
    const jobId = (res.json() as { job_id: number }).job_id;
    engine.db.prepare('UPDATE social_users SET protected = 1 WHERE id = ?').run(BigInt(TIMELINE_USER));
    testRunner(engine, { mode: 'inline' });
    const done = await untilEnded(server, key, jobId);
    expect(done).toMatchObject({ status: 'error', message: `User ${TIMELINE_USER}'s profile is protected: its timeline is not available.` });
    expect(holdsOfJob(engine.db, jobId)[0]).toMatchObject({ posted: 0, open: false });
  });
});

describe('timeline jobs in the app', () => {
  it('estimates the hold as the posts of the timeline, starts the job as the app, lists it with the screen name and retries it', async () => {
    const engine = testEngine();
    const timeline = writeTimeline(engine.db, POSTS, 5_000);
    const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
    const h = app.handlers;
    const runner = testRunner(engine, { mode: 'inline' });
    // Offline the job can write only what the corpus holds: that, not statuses_count (5,000), is the hold.
    expect(await h['jobs.estimate']({ kind: 'timeline', user_id: TIMELINE_USER })).toMatchObject({ hold: timeline.tweets.length, basis: 'the posts of this timeline in the corpus' });
    expect(await h['jobs.estimate']({ kind: 'timeline', user_id: TIMELINE_USER, timeline: 'tweets-and-replies' })).toMatchObject({ hold: timeline.all.length });
    await expect(h['jobs.estimate']({ kind: 'timeline', user_id: '42' })).rejects.toThrow('User 42 was not found.');
    await expect(h['jobs.estimate']({ kind: 'timeline', user_id: TIMELINE_USER, tweet_id: '1' } as never)).rejects.toThrow(/'tweet_id'/);
    await expect(h['jobs.estimate']({ kind: 'search', query: 'a', user_id: TIMELINE_USER } as never)).rejects.toThrow(/'user_id'/);
    const { job_id } = await h['jobs.create']({ kind: 'timeline', user_id: TIMELINE_USER, timeline: 'tweets-and-replies', output_format: 'json', name: 'All of tl1' });
    await runner.idle();
    const listed = (await h['jobs.list']()).find((j) => j.job_id === job_id)!;
    expect(listed).toMatchObject({ kind: 'timeline', status: 'success', subject_screen_name: 'tl1', progress: timeline.all.length, params: { user_id: TIMELINE_USER, timeline: 'tweets-and-replies', name: 'All of tl1' } });
    const file = (await h['exports.list']()).find((f) => f.job_id === job_id)!;
    expect(file).toMatchObject({ job_kind: 'timeline', job_user_id: TIMELINE_USER, job_name: 'All of tl1', file_name: `timeline-${TIMELINE_USER}-job${job_id}.json` });
    const json = JSON.parse(readFileSync(file.path, 'utf8')) as { id_str: string; user: { id_str: string } }[];
    expect(json.map((t) => t.id_str)).toEqual(timeline.all.map(String));
    expect(new Set(json.map((t) => t.user.id_str))).toEqual(new Set([TIMELINE_USER]));
    const again = await h['jobs.retry']({ job_id });
    expect((await h['jobs.get']({ job_id: again.job_id })).params).toMatchObject({ user_id: TIMELINE_USER, timeline: 'tweets-and-replies', name: 'All of tl1' });
    await runner.stop();
    app.close();
  });
});

describe('a timeline job stopped mid-way', () => {
  it.each(['csv', 'json'] as const)('%s: resumes after its last committed row; a post stored meanwhile is neither written twice nor charged twice', async (format) => {
    const engine = testEngine();
    const timeline = writeTimeline(engine.db, POSTS);
    const { user } = createKey(engine, 'analyst');
    const parsed = parseTimelineJob(engine.db, TIMELINE_USER, 'tweets-and-replies', { output_format: format });
    const jobId = createJob(engine.db, { userId: user.id, kind: 'timeline', params: parsed.params, output: parsed.output, maxRows: parsed.maxRows, nowMs: engine.clock.nowMs() });
    const ctx = (workerId: string, extra: Partial<RunContext> = {}): RunContext => ({ db: engine.db, dataDir: engine.dataDir, clock: engine.clock, ids: engine.ids, workerId, batchRows: 6, ...extra });
    const first = `${runnerOwner('first')}:0`;
    let batches = 0;
    expect(await runJob(ctx(first, { between: async () => void batches++, stopRequested: () => batches >= 3 }), claimNextJob(engine.db, first, engine.clock.nowMs())!)).toBe('stopped');
    const mid = getJob(engine.db, jobId)!;
    expect(mid).toMatchObject({ status: 'processing', checkpoint_rows: 18, charged_credits: 18, checkpoint_cursor: timeline.all[17]!.toString() });
    // Written, never committed: the process died between the write and the commit.
    appendFileSync(stagedPath(engine.dataDir, mid), format === 'json' ? ',\n{"id_str":"garbage"}' : 'garbage,row\r\n');
    // A post imported meanwhile, older than the cursor's row but newer than the next: it belongs in
    // the rest of the walk, once. One newer than the walk's start does not (the keyset is below it).
    const between = timeline.all[17]! - 1n;
    const newest = TIMELINE_BASE + 10_000_000n;
    for (const id of [between, newest]) {
      upsertTweet(engine.db, { id_str: id.toString(), full_text: 'imported later', user: { id_str: TIMELINE_USER, screen_name: 'tl1', name: 'Timeline 1' }, tweet_created_at: '2025-06-02T00:00:00.000000Z' }, { retrievedAtMs: 2 });
    }

    const second = `${runnerOwner('second')}:0`;
    expect(recoverStaleLocks(engine.db, runnerOwner('second'), engine.clock.nowMs(), 600_000)).toEqual([jobId]);
    expect(await runJob(ctx(second), claimNextJob(engine.db, second, engine.clock.nowMs())!)).toBe('success');

    const job = getJob(engine.db, jobId)!;
    const text = readFileSync(join(engine.dataDir, 'exports', job.result_file!), 'utf8');
    const ids = format === 'json' ? (JSON.parse(text) as { id_str: string }[]).map((r) => r.id_str) : parseCsv(text.replace(/^\uFEFF/, '')).slice(1).map((r) => r[0]!);
    const expected = [...timeline.all.slice(0, 18), between, ...timeline.all.slice(18)].slice(0, parsed.maxRows).map(String);
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(newest.toString());
    expect(existsSync(stagedPath(engine.dataDir, mid))).toBe(false);
    expectEachRowChargedOnce(engine.db, jobId, ids.length);
    expect(holdsOfJob(engine.db, jobId)[0]).toMatchObject({ posted: ids.length, open: false });
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it("counts only the named user's posts (another user's timeline holds only theirs)", () => {
    const engine = testEngine();
    writeTimeline(engine.db, 10);
    expect(() => parseTimelineJob(engine.db, OTHER_USER, 'tweets', {})).not.toThrow();
    expect(parseTimelineJob(engine.db, OTHER_USER, 'tweets', {}).maxRows).toBe(2);
  });
});
