import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventName, Events } from '../../src/shared/contract';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { createHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { startJobRunner } from '../../src/main/engine/jobs';
import { balanceOf, charge } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

// Jobs, exports, settings, imports and events through the handler layer, against the real engine
// and its real job runner (inline mode: the same runJob code path as the worker threads).
function setup() {
  const engine = testEngine();
  const tour = seedCorpus(engine.db, { scale: 'small', seed: 5 });
  const hub = new EventHub();
  const events: { name: EventName; payload: unknown }[] = [];
  hub.subscribe((name, payload) => events.push({ name, payload }));
  const app = createHandlers(engine, { events: hub, mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
  const runner = startJobRunner(engine, { mode: 'inline', pollMs: 20 });
  return { engine, tour, app, h: app.handlers, events, runner, close: () => { app.close(); return runner.stop(); } };
}

function of<E extends EventName>(events: { name: EventName; payload: unknown }[], name: E): Events[E][] {
  return events.filter((e) => e.name === name).map((e) => e.payload as Events[E]);
}

describe('handlers: jobs and exports', () => {
  it('estimates the hold, runs a search job in each format, and previews every file', async () => {
    const { h, tour, runner, app, events, engine, close } = setup();
    const query = `from:${tour.large_conversation_root.screen_name}`;
    const estimate = await h['jobs.estimate']({ kind: 'search', query, max_count: 30, output_format: 'csv' });
    expect(estimate).toMatchObject({ hold: 30, enough: true, basis: 'max_count' });
    expect(estimate.available).toBe(balanceOf(engine.db, APP_USER_ID).available);
    const ids: number[] = [];
    for (const output_format of ['csv', 'json', 'xlsx'] as const) {
      ids.push((await h['jobs.create']({ kind: 'search', query, max_count: 30, output_format })).job_id);
    }
    ids.push((await h['jobs.create']({ kind: 'search', query, max_count: 30, output_format: 'csv', compress: true })).job_id);
    await runner.idle();
    app.watcher.tick();
    const jobs = await h['jobs.list']();
    for (const id of ids) {
      const job = jobs.find((j) => j.job_id === id)!;
      expect(job).toMatchObject({ status: 'success', progress: 30, credits_used: 30, user_name: 'app' });
      expect(job.result?.datafile_url).toMatch(/^http:\/\/127\.0\.0\.1:7878\/datafiles\//);
    }
    expect(of(events, 'job.finished').map((e) => e.job_id).sort()).toEqual([...ids].sort());
    const files = await h['exports.list']();
    expect(files.map((f) => f.job_id).sort()).toEqual([...ids].sort());
    for (const file of files) {
      expect(file.rows).toBe(30);
      const preview = await h['exports.preview']({ job_id: file.job_id, rows: 5 });
      expect(preview.rows).toHaveLength(5);
      expect(preview.columns[0]).toBe('id_str');
      // Newest first, exact 19-digit ids in every format.
      for (const row of preview.rows) expect(row[0]).toMatch(/^\d{19}$/);
      expect(BigInt(preview.rows[0]![0]!)).toBeGreaterThan(BigInt(preview.rows[1]![0]!));
    }
    await close();
  });

  it('runs a reply collection, cancels a pending job, and retries it as a new job', async () => {
    const { h, tour, runner, events, close } = setup();
    await runner.stop();
    const { job_id } = await h['jobs.create']({ kind: 'replies', tweet_id: tour.large_conversation_root.id_str, output_format: 'json' });
    const cancelled = await h['jobs.cancel']({ job_id });
    // The API's status stays 'error'; the app knows it was cancelled, and its event says so.
    expect(cancelled).toMatchObject({ status: 'error', cancelled: true, message: 'Cancelled by the user' });
    await expect.poll(() => of(events, 'job.finished').find((e) => e.job_id === job_id)).toMatchObject({ status: 'error', cancelled: true });
    // What a retry would hold is shown before it starts, and is what the first job held.
    const first = await h['jobs.estimate']({ kind: 'replies', tweet_id: tour.large_conversation_root.id_str, output_format: 'json' });
    expect(await h['jobs.retryEstimate']({ job_id })).toEqual(first);
    expect(first.hold).toBeGreaterThan(1);
    const retried = await h['jobs.retry']({ job_id });
    expect(retried.job_id).toBeGreaterThan(job_id);
    const again = await h['jobs.get']({ job_id: retried.job_id });
    expect(again).toMatchObject({ kind: 'replies', status: 'pending', params: { tweet_id: tour.large_conversation_root.id_str, output_format: 'json' } });
    await close();
  });

  it('holds a job started in the app from the app user and charges its rows; a hold the balance cannot cover is refused', async () => {
    const { h, app, tour, runner, engine, close } = setup();
    const query = `from:${tour.large_conversation_root.screen_name}`;
    // Leave the app user exactly the hold of a 30-row search: the hold is the whole price.
    charge(engine.db, { transferId: 'test:drain', userId: APP_USER_ID, amount: balanceOf(engine.db, APP_USER_ID).available - 30, nowMs: 0 });
    const estimate = await h['jobs.estimate']({ kind: 'search', query, max_count: 30, output_format: 'csv' });
    expect(estimate).toMatchObject({ hold: 30, available: 30, enough: true });
    const posted = balanceOf(engine.db, APP_USER_ID).posted;
    const { job_id } = await h['jobs.create']({ kind: 'search', query, max_count: 30, output_format: 'csv' });
    await runner.idle();
    app.watcher.tick();
    expect(await h['jobs.get']({ job_id })).toMatchObject({ status: 'success', credits_used: 30 });
    expect(balanceOf(engine.db, APP_USER_ID)).toMatchObject({ posted: posted - 30, pending: 0, available: 0 });
    const memos = (await h['credits.ledger']({ user_id: APP_USER_ID })).entries.map((e) => e.memo);
    // The hold and the rows it paid for (all of it: nothing left to release); no request price besides.
    expect(memos.filter((m) => m.startsWith(`job ${job_id}:`))).toEqual([`job ${job_id}: rows 0..29`, `job ${job_id}: hold for up to 30 rows`]);
    expect(memos.filter((m) => m.startsWith('app '))).toEqual([]);

    // Nothing left: the next job cannot hold its cost and is refused (402) before it exists.
    const jobs = (await h['jobs.list']()).length;
    expect(await h['jobs.estimate']({ kind: 'search', query, max_count: 1, output_format: 'csv' })).toMatchObject({ hold: 1, available: 0, enough: false });
    expect(await dispatch(app.handlers, 'jobs.create', { kind: 'search', query, max_count: 1, output_format: 'csv' })).toMatchObject({
      ok: false,
      error: { code: 'payment_required', message: expect.stringContaining('this job can cost up to 1 credit and 0 are available') },
    });
    expect(await h['jobs.retryEstimate']({ job_id })).toMatchObject({ hold: 30, available: 0, enough: false });
    expect(await dispatch(app.handlers, 'jobs.retry', { job_id })).toMatchObject({ ok: false, error: { code: 'payment_required' } });
    expect((await h['jobs.list']()).length).toBe(jobs);
    expect(balanceOf(engine.db, APP_USER_ID)).toMatchObject({ posted: posted - 30, pending: 0 });
    await close();
  });

  it('refuses bad job parameters by name and an unknown post with 404', async () => {
    const { app, close } = setup();
    expect(await dispatch(app.handlers, 'jobs.create', { kind: 'search', query: 'a', output_format: 'pdf' })).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining("'output_format'") } });
    expect(await dispatch(app.handlers, 'jobs.create', { kind: 'replies', tweet_id: '1' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await dispatch(app.handlers, 'jobs.create', { kind: 'nope' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch(app.handlers, 'jobs.estimate', { kind: 'search', query: 'a', max_count: 0 })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch(app.handlers, 'exports.preview', { job_id: 999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    await close();
  });
});

describe('handlers: settings', () => {
  it('creates a key once, lists it by prefix, revokes it; grants credits and shows them in the ledger', async () => {
    const { h, app, close } = setup();
    const created = await h['keys.create']({ user: 'analyst', credits: 500 });
    expect(created.key).toMatch(/^sk_[0-9a-f]{48}$/);
    const listed = (await h['keys.list']()).find((k) => k.id === created.key_id)!;
    expect(listed).toMatchObject({ user_name: 'analyst', revoked_ms: null });
    expect(created.key.startsWith(listed.prefix)).toBe(true);
    expect(JSON.stringify(await h['keys.list']())).not.toContain(created.key);
    const revoked = await h['keys.revoke']({ key_id: created.key_id });
    expect(revoked.revoked_ms).not.toBeNull();
    const before = (await h['credits.ledger']({ user_id: created.user_id })).balance.available;
    const balance = await h['credits.grant']({ user_id: created.user_id, amount: 250 });
    expect(balance.available).toBe(before + 250);
    const ledger = await h['credits.ledger']({ user_id: created.user_id });
    expect(ledger.entries[0]).toMatchObject({ kind: 'grant', amount: 250, memo: 'Granted in the app' });
    expect(await dispatch(app.handlers, 'credits.grant', { user_id: created.user_id, amount: -5 })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    await close();
  });

  it('sets rate limits and webhook URLs with clear refusals, and lists users with balances', async () => {
    const { h, app, close } = setup();
    expect((await h['users.setLimit']({ user_id: APP_USER_ID, per_minute: 600 })).per_minute_limit).toBe(600);
    expect(await dispatch(app.handlers, 'users.setLimit', { user_id: APP_USER_ID, per_minute: 0 })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    const inbox = await h['inbox.get']();
    expect(inbox.url).toMatch(/^http:\/\/127\.0\.0\.1:7878\/inbox\/[0-9a-f]+$/);
    expect((await h['inbox.get']()).url).toBe(inbox.url);
    expect((await h['webhooks.set']({ user_id: APP_USER_ID, url: inbox.url })).webhook_url).toBe(inbox.url);
    expect(await dispatch(app.handlers, 'webhooks.set', { user_id: APP_USER_ID, url: 'ftp://x' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect((await h['webhooks.set']({ user_id: APP_USER_ID, url: null })).webhook_url).toBeNull();
    const users = await h['users.list']();
    expect(users[0]).toMatchObject({ id: APP_USER_ID, name: 'app', builtin: true });
    expect(users[0]!.balance!.available).toBeGreaterThan(0);
    await close();
  });
});

describe('handlers: import', () => {
  it('imports a dropped file and reports the counts as events; a second import adds nothing', async () => {
    const { h, app, events, close } = setup();
    const file = join(tempDir(), 'statuses.jsonl');
    const user = { id_str: '9007199254740993', name: 'Imported Person', screen_name: 'imported_p', created_at: 'Wed Oct 10 20:19:24 +0000 2018' };
    writeFileSync(
      file,
      [
        JSON.stringify({ id_str: '9007199254740995', full_text: 'hello from v1.1', created_at: 'Thu Oct 11 20:19:24 +0000 2018', user }),
        '{broken',
        '',
      ].join('\n'),
    );
    await h['data.import']({ paths: [file] });
    await app.idle();
    const done = of(events, 'import.progress').filter((p) => p.done);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ added: 1, error: null });
    expect(done[0]!.problems.join('\n')).toMatch(/statuses\.jsonl:2/);
    expect((await h['post.get']({ id: '9007199254740995' })).tweet.full_text).toBe('hello from v1.1');
    await h['data.import']({ paths: [file] });
    await app.idle();
    expect(of(events, 'import.progress').filter((p) => p.done)[1]).toMatchObject({ added: 0 });
    expect(await dispatch(app.handlers, 'data.import', { paths: ['/no/such/file'] })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch(app.handlers, 'data.import', { paths: [file], encoding: 'cp1252' })).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining('utf8, latin1') } });
    await close();
  });
});
