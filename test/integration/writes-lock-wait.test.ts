import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { getJob } from '../../src/main/engine/jobs';
import { balanceOf, checkInvariants } from '../../src/main/engine/ledger';
import { type Db, openDb } from '../../src/main/engine/store/db';
import type { Handlers } from '../../src/shared/contract';
import { WRITE_LOCK_BUSY_MESSAGE } from '../../src/main/engine/store/when-write-free';
import { applyRetention, DATABASE_BUSY } from '../../src/main/engine/exports/retention';
import { apiKey, fund } from '../fixtures/api-corpus';
import { finishedExport } from '../fixtures/finished-exports';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// A job submitted, cancelled or deleted, by a script or in the app, a read with an Idempotency-Key,
// a webhook inbox's message and the app's settings, while another connection holds the write lock
// (`skein import` in its own process, ~270 ms per transaction), wait for it off the event loop
// (store/when-write-free.ts): the server answers other requests meanwhile. Here the other
// connection is in this very process, so a wait inside SQLite's busy handler would also keep it
// from ever committing: the write would fail after the busy timeout instead.

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

/**
 * An app call made while `other` holds the write lock: still pending after timers have fired and
 * another app call was answered, done once the lock is released.
 */
function appCallWaits(other: Db, handlers: Handlers) {
  return async <T,>(call: () => Promise<T>): Promise<T> => {
    other.prepare('BEGIN IMMEDIATE').run();
    let settled = false;
    const pending = call().finally(() => (settled = true));
    await ticks(10);
    expect(settled).toBe(false);
    expect(await dispatch(handlers, 'jobs.list', {})).toMatchObject({ ok: true });
    expect(settled).toBe(false);
    other.prepare('COMMIT').run();
    return pending;
  };
}

// The other connections, rolled back and closed after each test, whatever it left.
const others: Db[] = [];
afterEach(() => {
  for (const other of others.splice(0)) {
    if (other.inTransaction) other.prepare('ROLLBACK').run();
    other.close();
  }
});

async function setup() {
  const engine = testEngine();
  writeConversation(engine.db, 10, 2);
  const key = apiKey(engine);
  const server = await startServer(engine, { metering: true });
  const other = openDb(engine.dbFile);
  others.push(other);
  const app = () => createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => server.url }).handlers;
  return { engine, key, server, other, app };
}

describe('a write while another connection holds the write lock', () => {
  it('submits a job over HTTP once the lock is free, the server answering meanwhile', async () => {
    const { engine, key, server, other } = await setup();
    other.prepare('BEGIN IMMEDIATE').run();
    let settled = false;
    const submitted = server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob`, { method: 'POST', key }).finally(() => (settled = true));
    await ticks(10);
    expect(settled).toBe(false);
    // A free request of the same API is answered while the submit waits.
    expect((await server.request('/jobs/999999', { key })).status).toBe(404);
    expect(settled).toBe(false);
    other.prepare('COMMIT').run();
    const res = await submitted;
    expect(res.status).toBe(200);
    const jobId = (res.json() as { job_id: number }).job_id;
    expect(getJob(engine.db, jobId)?.status).toBe('pending');
    expect(engine.db.pragma('busy_timeout', { simple: true })).toBe(5000);

    // Cancelled the same way.
    other.prepare('BEGIN IMMEDIATE').run();
    let cancelled = false;
    const cancel = server.request(`/jobs/${jobId}/cancel`, { method: 'POST', key }).finally(() => (cancelled = true));
    await ticks(10);
    expect(cancelled).toBe(false);
    other.prepare('COMMIT').run();
    expect((await cancel).status).toBe(200);
    expect(getJob(engine.db, jobId)?.status).toBe('error');
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it("is started, cancelled and deleted from the app the same way, the app's other calls answered meanwhile", async () => {
    const { engine, other, app } = await setup();
    fund(engine, APP_USER_ID);
    const handlers = app();
    const waitsForLock = appCallWaits(other, handlers);
    const created = await waitsForLock(() => dispatch(handlers, 'jobs.create', { kind: 'replies', tweet_id: String(ROOT_ID) }));
    expect(created).toMatchObject({ ok: true });
    const jobId = (created as { value: { job_id: number } }).value.job_id;
    expect(await waitsForLock(() => dispatch(handlers, 'jobs.cancel', { job_id: jobId }))).toMatchObject({ ok: true, value: { status: 'error' } });
    expect(await waitsForLock(() => dispatch(handlers, 'jobs.delete', { job_id: jobId }))).toMatchObject({ ok: true, value: { job_id: jobId } });
    expect(getJob(engine.db, jobId)?.deleted_at_ms).not.toBeNull();
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it("changes the app's settings the same way: a limit, a key made and revoked, credits granted", async () => {
    const { engine, other, app } = await setup();
    const handlers = app();
    const waitsForLock = appCallWaits(other, handlers);
    const made = await waitsForLock(() => dispatch(handlers, 'keys.create', { user: 'notebook', credits: 10 }));
    expect(made).toMatchObject({ ok: true });
    const { key_id, user_id } = (made as { value: { key_id: number; user_id: number } }).value;
    expect(await waitsForLock(() => dispatch(handlers, 'users.setLimit', { user_id, per_minute: 30 }))).toMatchObject({ ok: true, value: { per_minute_limit: 30 } });
    expect(await waitsForLock(() => dispatch(handlers, 'credits.grant', { user_id, amount: 5 }))).toMatchObject({ ok: true, value: { available: 15 } });
    expect(await waitsForLock(() => dispatch(handlers, 'keys.revoke', { key_id }))).toMatchObject({ ok: true, value: { id: key_id } });
    expect(engine.db.prepare('SELECT revoked_at_ms IS NOT NULL FROM api_keys WHERE id = ?').pluck().get(key_id)).toBe(1);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  // A downstream Skein's job sends an Idempotency-Key with every page it asks for: charged on its own.
  it('answers a read with an Idempotency-Key once the lock is free, charging it once', async () => {
    const { engine, key, server, other } = await setup();
    const userId = (engine.db.prepare('SELECT user_id FROM api_keys ORDER BY id DESC LIMIT 1').get() as { user_id: number }).user_id;
    const available = () => balanceOf(engine.db, userId).available;
    const before = available();
    const read = () => server.request(`/social/tweets/${ROOT_ID}`, { key, headers: { 'idempotency-key': 'page-1' } });
    other.prepare('BEGIN IMMEDIATE').run();
    let settled = false;
    const first = read().finally(() => (settled = true));
    await ticks(10);
    expect(settled).toBe(false);
    expect((await server.request('/jobs/999999', { key })).status).toBe(404);
    expect(settled).toBe(false);
    other.prepare('COMMIT').run();
    expect((await first).status).toBe(200);
    expect(available()).toBe(before - 1);
    // Asked again (the downstream did not get the answer): answered, not charged again.
    expect((await read()).status).toBe(200);
    expect(available()).toBe(before - 1);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it("keeps a webhook inbox's message once the lock is free, answering meanwhile", async () => {
    const { key, server, other } = await setup();
    const inbox = (await server.request('/webhooks/inboxes', { method: 'POST', key })).json() as { url: string };
    other.prepare('BEGIN IMMEDIATE').run();
    let settled = false;
    const posted = fetch(inbox.url, { method: 'POST', body: '{"event":"job_finished"}' }).finally(() => (settled = true));
    await ticks(10);
    expect(settled).toBe(false);
    expect((await fetch(inbox.url)).status).toBe(200);
    other.prepare('COMMIT').run();
    expect((await posted).status).toBe(200);
    const listed = (await (await fetch(inbox.url)).json()) as { messages: { body: string }[] };
    expect(listed.messages.map((m) => m.body)).toEqual(['{"event":"job_finished"}']);
  });

  it("sets the app's webhook and upstream the same way", async () => {
    const { other, app } = await setup();
    const handlers = app();
    const waitsForLock = appCallWaits(other, handlers);
    expect(await waitsForLock(() => dispatch(handlers, 'webhooks.set', { user_id: APP_USER_ID, url: 'http://127.0.0.1:9/hook' }))).toMatchObject({
      ok: true,
      value: { webhook_url: 'http://127.0.0.1:9/hook' },
    });
    expect(await waitsForLock(() => dispatch(handlers, 'upstream.set', { url: 'http://127.0.0.1:9', profile: 'spec' }))).toMatchObject({ ok: true });
    expect(await waitsForLock(() => dispatch(handlers, 'upstream.remove', {}))).toMatchObject({ ok: true, value: { removed: true } });
  });

  it('deletes an export from the app the same way; a retention sweep leaves a due file for its next sweep', async () => {
    const { engine, other, app } = await setup();
    fund(engine, APP_USER_ID);
    const runner = testRunner(engine, { mode: 'inline' });
    const first = await finishedExport(engine, runner, APP_USER_ID, 3);
    const second = await finishedExport(engine, runner, APP_USER_ID, 3);
    await runner.stop();
    const handlers = app();
    const deleted = await appCallWaits(other, handlers)(() => dispatch(handlers, 'exports.delete', { job_id: first.id }));
    expect(deleted).toMatchObject({ ok: true, value: { job_id: first.id, deleted_by: 'user' } });

    // The hourly sweep two days later, the kept file due: refused the lock, it leaves the file and says why.
    other.prepare('BEGIN IMMEDIATE').run();
    const busy = applyRetention(engine.db, engine.dataDir, engine.clock.nowMs() + 2 * 86_400_000, { keep: 'days', days: 1 });
    other.prepare('COMMIT').run();
    expect(busy.deleted).toEqual([]);
    expect(busy.skipped).toEqual([{ job_id: second.id, file_name: second.result_file, why: DATABASE_BUSY }]);
    expect(getJob(engine.db, second.id)?.file_deleted_at_ms).toBeNull();
    expect(engine.db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('still fails after the busy timeout, having written nothing, and says why', async () => {
    const { engine, key, server, other } = await setup();
    engine.db.pragma('busy_timeout = 60');
    other.prepare('BEGIN IMMEDIATE').run();
    const jobsBefore = engine.db.prepare('SELECT count(*) FROM jobs').pluck().get();
    const res = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob`, { method: 'POST', key });
    expect(res.status).toBe(500);
    expect(res.json()).toMatchObject({ status: 'error', message: WRITE_LOCK_BUSY_MESSAGE });
    expect(res.headers.get('retry-after')).toBe('5');
    expect(engine.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(jobsBefore);
    expect(engine.db.pragma('busy_timeout', { simple: true })).toBe(60);
  });
});
