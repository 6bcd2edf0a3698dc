import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { P, writeNetwork } from '../fixtures/network-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// A job's name (issue 15; our extension `name`): given in the app's form or by a script over
// HTTP, stored in params_json, listed by jobs.list and exports.list with the query or post id the
// file came from, kept by a retry; a bad name is a 422 naming `name`, and creates no job.

const REPLIES = `/social/tweets/${P.p1}/comments/asyncJob`;
const SEARCH = '/social/search/asyncJob';

describe('job names', () => {
  it('the app names a job; jobs.list and exports.list show the name with the query or post id, and a retry keeps it', async () => {
    const engine = testEngine();
    writeNetwork(engine.db);
    const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
    const h = app.handlers;
    const runner = testRunner(engine, { mode: 'inline' });
    const named = await h['jobs.create']({ kind: 'search', query: 'network', max_count: 5, output_format: 'csv', name: '  Debate night 🎙  ' });
    const replies = await h['jobs.create']({ kind: 'replies', tweet_id: P.p1, output_format: 'json', name: 'x'.repeat(80) });
    const plain = await h['jobs.create']({ kind: 'search', query: 'network', max_count: 5, name: '' });
    await runner.idle();
    const jobs = await h['jobs.list']();
    const byId = (id: number) => jobs.find((j) => j.job_id === id)!;
    expect(byId(named.job_id).params).toMatchObject({ name: 'Debate night 🎙', query: 'network' });
    expect(byId(replies.job_id).params).toMatchObject({ name: 'x'.repeat(80), tweet_id: P.p1 });
    expect('name' in byId(plain.job_id).params).toBe(false);
    const files = await h['exports.list']();
    const file = (id: number) => files.find((f) => f.job_id === id)!;
    expect(file(named.job_id)).toMatchObject({ job_kind: 'search', job_name: 'Debate night 🎙', job_query: 'network', job_tweet_id: null });
    expect(file(replies.job_id)).toMatchObject({ job_kind: 'replies', job_name: 'x'.repeat(80), job_query: null, job_tweet_id: P.p1 });
    expect(file(plain.job_id)).toMatchObject({ job_name: null, job_query: 'network' });
    const again = await h['jobs.retry']({ job_id: named.job_id });
    expect((await h['jobs.get']({ job_id: again.job_id })).params).toMatchObject({ name: 'Debate night 🎙' });
    await runner.stop();
    app.close();
  });

  it('the app refuses a bad name with a handler error naming it, and starts no job', async () => {
    const engine = testEngine();
    writeNetwork(engine.db);
    const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
    const h = app.handlers;
    await expect(h['jobs.create']({ kind: 'search', query: 'network', name: 'y'.repeat(81) })).rejects.toThrow(/'name'.*at most 80 characters, got 81/);
    await expect(h['jobs.estimate']({ kind: 'replies', tweet_id: P.p1, name: '   ' })).rejects.toThrow(/'name'.*besides spaces/);
    await expect(h['jobs.create']({ kind: 'search', query: 'network', name: 'two\nlines' })).rejects.toThrow(/'name'.*no line breaks/);
    expect(engine.db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 0 });
    app.close();
  });

  it('a script names a job over HTTP (query, JSON or form), and a bad name is a 422 naming it', async () => {
    const engine = testEngine();
    writeNetwork(engine.db);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const ok = [
      await server.request(`${SEARCH}?query=network&name=From%20a%20script`, { method: 'POST', key }),
      await server.request(REPLIES, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'JSON name' }) }),
      await server.request(SEARCH, { method: 'POST', key, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=network&name=Form+name' }),
    ];
    for (const res of ok) expect(res.status, res.text).toBe(200);
    const names = (engine.db.prepare('SELECT params_json FROM jobs ORDER BY id').pluck().all() as string[]).map((p) => (JSON.parse(p) as { name?: string }).name);
    expect(names).toEqual(['From a script', 'JSON name', 'Form name']);

    const bad: [string, RequestInit, RegExp][] = [
      [`${SEARCH}?query=network&name=${'z'.repeat(81)}`, {}, /at most 80 characters, got 81/],
      [`${SEARCH}?query=network&name=%20%20`, {}, /besides spaces/],
      [`${SEARCH}?query=network&name=a%09b`, {}, /no line breaks, tabs/],
      [`${SEARCH}?query=network&name=a&name=b`, {}, /give it once/],
      [REPLIES, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 42 }) }, /expected text of 1 to 80 characters, got number/],
      [REPLIES, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: ['a'] }) }, /give it once|expected text/],
    ];
    for (const [path, init, message] of bad) {
      const res = await server.request(path, { method: 'POST', key, ...init });
      expect(res.status, path).toBe(422);
      const body = res.json() as { status: string; message: string };
      expect(body.status).toBe('error');
      expect(body.message, path).toContain("'name'");
      expect(body.message, path).toMatch(message);
    }
    expect(engine.db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 3 });
  });
});
