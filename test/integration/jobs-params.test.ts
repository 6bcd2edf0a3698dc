import { describe, expect, it } from 'vitest';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, holdsOfJob } from '../../src/main/engine/ledger';
import { MAX_MAX_COUNT } from '../../src/main/engine/jobs/limits';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// since_id, max_id and max_count; levels one and two only; parameters in the query string, a JSON
// body or a form body; every refusal in the spec's shape (404, 422 naming the parameter, 402, 403).
// Jobs run inline here (the same runJob as the worker threads, which jobs-formats covers).

async function setup(direct = 12) {
  const engine = testEngine();
  const convo = writeConversation(engine.db, direct, Math.min(direct, 4));
  const key = apiKey(engine);
  const server = await startServer(engine);
  const runner = testRunner(engine, { mode: 'inline', batchRows: 3 });
  const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).get() as { id: number }).id;
  return { engine, convo, key, server, runner, userId };
}

type Server = Awaited<ReturnType<typeof setup>>['server'];

async function runToEnd(server: Server, runner: Awaited<ReturnType<typeof setup>>['runner'], key: string, path: string, init: RequestInit = {}) {
  const res = await server.request(path, { method: 'POST', key, ...init });
  expect(res.status, res.text).toBe(200);
  const jobId = (res.json() as { job_id: number }).job_id;
  await runner.idle();
  const status = (await server.request(`/jobs/${jobId}`, { key })).json() as { status: string; result: { datafile_url: string } };
  expect(status.status).toBe('success');
  const rows = (await (await fetch(status.result.datafile_url)).json()) as { id_str: string; in_reply_to_status_id_str: string | null }[];
  return { jobId, ids: rows.map((r) => r.id_str), rows };
}

const errorOf = (res: { status: number; json: () => unknown; headers: Headers }) => {
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = res.json() as { status: string; message: string };
  expect(body.status).toBe('error');
  return { status: res.status, message: body.message };
};

describe('reply jobs (spec 4.6)', () => {
  it('collects levels one and two, never the root or level three, newest first', async () => {
    const { convo, key, server, runner } = await setup();
    const { ids } = await runToEnd(server, runner, key, `/social/tweets/${ROOT_ID}/comments/asyncJob`);
    expect(ids).toEqual(convo.expected.map(String));
    for (const id of convo.level3) expect(ids).not.toContain(String(id));
    expect(ids).not.toContain(String(ROOT_ID));
  });

  it('stops at since_id and at max_count, with parameters in the query string', async () => {
    const { convo, key, server, runner } = await setup();
    const since = convo.expected[6]!;
    const a = await runToEnd(server, runner, key, `/social/tweets/${ROOT_ID}/comments/asyncJob?since_id=${since}`);
    expect(a.ids).toEqual(convo.expected.slice(0, 6).map(String));
    const b = await runToEnd(server, runner, key, `/social/tweets/${ROOT_ID}/comments/asyncJob?max_count=4`);
    expect(b.ids).toEqual(convo.expected.slice(0, 4).map(String));
  });

  it('takes a form body', async () => {
    const { convo, key, server, runner } = await setup();
    const { ids } = await runToEnd(server, runner, key, `/social/tweets/${ROOT_ID}/comments/asyncJob`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `max_count=2&output_format=json&compress=false`,
    });
    expect(ids).toEqual(convo.expected.slice(0, 2).map(String));
  });

  it('charges one credit per row from the hold, and voids the rest', async () => {
    const { engine, convo, key, server, runner, userId } = await setup();
    const before = balanceOf(engine.db, userId).posted;
    const { jobId, ids } = await runToEnd(server, runner, key, `/social/tweets/${ROOT_ID}/comments/asyncJob?max_count=50`);
    expect(ids.length).toBe(convo.expected.length);
    const [hold] = holdsOfJob(engine.db, jobId);
    expect(hold).toMatchObject({ amount: 50, posted: convo.expected.length, voided: 50 - convo.expected.length, open: false });
    // The request's own price (1) plus one credit per row.
    expect(before - balanceOf(engine.db, userId).posted).toBe(1 + convo.expected.length);
  });

  it('refuses an unknown post (404) and bad parameters (422, naming them)', async () => {
    const { key, server } = await setup();
    const post = (path: string, init: RequestInit = {}) => server.request(path, { method: 'POST', key, ...init });
    expect(errorOf(await post('/social/tweets/1850000000000000999/comments/asyncJob'))).toEqual({ status: 404, message: 'Tweet 1850000000000000999 was not found.' });
    expect(errorOf(await post('/social/tweets/12x/comments/asyncJob')).status).toBe(422);
    const cases: [string, string][] = [
      ['max_count=0', 'max_count'],
      ['max_count=abc', 'max_count'],
      [`max_count=${MAX_MAX_COUNT + 1}`, 'max_count'],
      ['output_format=pdf', 'output_format'],
      ['compress=maybe', 'compress'],
      ['since_id=-5', 'since_id'],
      ['max_cont=5', 'max_cont'],
      ['max_count=1&max_count=2', 'max_count'],
    ];
    for (const [qs, name] of cases) {
      const e = errorOf(await post(`/social/tweets/${ROOT_ID}/comments/asyncJob?${qs}`));
      expect(e.status, qs).toBe(422);
      expect(e.message, qs).toContain(`'${name}'`);
    }
    const bad = errorOf(await post(`/social/tweets/${ROOT_ID}/comments/asyncJob`, { headers: { 'content-type': 'application/json' }, body: '{"max_count": ' }));
    expect(bad.status).toBe(422);
    const twice = errorOf(await post(`/social/tweets/${ROOT_ID}/comments/asyncJob?max_count=3`, { headers: { 'content-type': 'application/json' }, body: '{"max_count": 4}' }));
    expect(twice).toMatchObject({ status: 422 });
    expect(twice.message).toContain("'max_count'");
  });
});

describe('search jobs (spec 4.7)', () => {
  it('defaults to 20 rows, honours max_id (inclusive) and since_id (exclusive), and keeps 19-digit ids exact from a JSON body', async () => {
    const engine = testEngine();
    const convo = writeConversation(engine.db, 30, 0, 0);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { mode: 'inline', batchRows: 7 });
    const newest = [...convo.level1].reverse().map(String);
    const all = await runToEnd(server, runner, key, '/social/search/asyncJob?query=%23tag0%20OR%20%23tag1');
    expect(all.ids).toEqual(newest.slice(0, 20));
    // max_id as a bare JSON number beyond 2^53: parsed exactly, not rounded.
    const maxId = convo.level1[20]!;
    const body = `{"query": "#tag0 OR #tag1", "max_id": ${maxId}, "since_id": "${convo.level1[10]}", "max_count": 100}`;
    const bounded = await runToEnd(server, runner, key, '/social/search/asyncJob', { headers: { 'content-type': 'application/json' }, body });
    const expected = convo.level1.filter((id) => id <= maxId && id > convo.level1[10]!).reverse().map(String);
    expect(bounded.ids).toEqual(expected);
  });

  it('refuses a missing or malformed query with 422 naming its position, and 402 when the hold is not covered', async () => {
    const { engine, server } = await setup(2);
    const poor = createKey(engine, 'poor').key; // the opening balance: 100,000 credits
    const post = (qs: string) => server.request(`/social/search/asyncJob?${qs}`, { method: 'POST', key: poor });
    expect(errorOf(await post('type=Latest'))).toEqual({ status: 422, message: "Missing required parameter 'query'." });
    const syntax = errorOf(await post('query=' + encodeURIComponent('fox form:alice')));
    expect(syntax.status).toBe(422);
    expect(syntax.message).toMatch(/column 5/);
    expect(errorOf(await post('query=fox&type=Popular')).message).toContain("'type'");
    const refused = errorOf(await post('query=fox&max_count=200000'));
    expect(refused.status).toBe(402);
    expect(engine.db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 0 });
  });
});

describe('job status (spec 4.8)', () => {
  it('answers 404 for an unknown job, 403 for another user\'s job, 422 for a malformed id, 401 without a key', async () => {
    const { engine, key, server } = await setup(2);
    const other = apiKey(engine, 'other');
    const res = await server.request('/social/search/asyncJob?query=fox', { method: 'POST', key: other });
    const jobId = (res.json() as { job_id: number }).job_id;
    expect(errorOf(await server.request('/jobs/999999', { key }))).toEqual({ status: 404, message: 'Job 999999 was not found.' });
    expect(errorOf(await server.request(`/jobs/${jobId}`, { key })).status).toBe(403);
    expect(errorOf(await server.request('/jobs/abc', { key })).status).toBe(422);
    expect(errorOf(await server.request(`/jobs/${jobId}`, {})).status).toBe(401);
  });

  it('POST /jobs/<id>/cancel ends a pending job in error with "Cancelled by the user" and releases its hold', async () => {
    const { engine, key, server, runner } = await setup(2);
    await runner.stop(); // nobody claims the job: it stays pending
    const res = await server.request('/social/search/asyncJob?query=fox&max_count=500', { method: 'POST', key });
    const jobId = (res.json() as { job_id: number }).job_id;
    expect(((await server.request(`/jobs/${jobId}`, { key })).json() as { status: string }).status).toBe('pending');
    const cancelled = await server.request(`/jobs/${jobId}/cancel`, { method: 'POST', key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json()).toMatchObject({ job_id: jobId, status: 'error', message: 'Cancelled by the user' });
    expect(holdsOfJob(engine.db, jobId)[0]).toMatchObject({ posted: 0, voided: 500, open: false });
    // Idempotent: cancelling again changes nothing.
    expect((await server.request(`/jobs/${jobId}/cancel`, { method: 'POST', key })).json()).toMatchObject({ status: 'error' });
  });
});

describe('prototype keys in a job body (issue 13, point 10)', () => {
  it('refuses a value whose text cannot be read ({"toString": "TOP"}, a list nested 100,000 deep) with 422 naming it, never a 500', async () => {
    // Issue 13, found by test/sim/http-fuzz.sim.test.ts (seed 23): String() of such a value threw a
    // TypeError or RangeError in the parameter checks, answered as a 500 "Internal error".
    const { engine, key, server } = await setup();
    const jobs = () => engine.db.prepare('SELECT count(*) FROM jobs').pluck().get() as number;
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const cases: [string, string, string][] = [
      ['', '{"query":"from:x","output_format":{"compress":1e400,"toString":"TOP"}}', 'output_format'],
      ['?max_count=3', '{"query":"from:x","max_count":{"toString":3}}', 'max_count'],
      ['?max_count=3', `{"query":"from:x","max_count":${deep}}`, 'max_count'],
    ];
    for (const [qs, body, name] of cases) {
      const res = await server.request(`/social/search/asyncJob${qs}`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body });
      const e = errorOf(res);
      expect(e.status, body.slice(0, 80)).toBe(422);
      expect(e.message).toBe(`Invalid parameter '${name}': expected one value (text, a number, true or false), not an object.`);
    }
    expect(jobs()).toBe(0);
  });

  it('refuses __proto__ in a JSON or form body as an unknown parameter, creating no job', async () => {
    const { engine, key, server } = await setup();
    const jobs = () => engine.db.prepare('SELECT count(*) FROM jobs').pluck().get() as number;
    const before = jobs();
    const json = await server.request('/social/search/asyncJob', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"query":"from:x","max_count":3,"bogus":1}}',
    });
    expect(json.status).toBe(422);
    expect((json.json() as { message: string }).message).toMatch(/__proto__.*unknown parameter/);
    const form = await server.request('/social/search/asyncJob', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '__proto__=x&query=from%3Ax',
    });
    expect(form.status).toBe(422);
    expect((form.json() as { message: string }).message).toMatch(/__proto__.*unknown parameter/);
    expect(jobs()).toBe(before);
  });
});
