import { afterEach, describe, expect, it, vi } from 'vitest';
import { getJob } from '../../src/main/engine/jobs';
import { grant, readCheckpoint } from '../../src/main/engine/ledger';
import { type Db, openDb } from '../../src/main/engine/store/db';
import { setWebhook } from '../../src/main/engine/webhooks';
import { enqueueWebhook } from '../../src/main/engine/webhooks/outbox';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// The job runner's poll (every 500 ms in `skein serve`) claimed the next job with an UPDATE, and the
// webhook dispatcher claimed the next delivery with BEGIN IMMEDIATE, even with nothing to claim.
// While another process held the write lock (`skein import`), each waited in SQLite's busy handler
// on the server's thread: every request stopped with it, for up to 1.9 s at a time. They now read
// first and write only if the lock is free, trying again shortly (store/when-write-free.ts). Here
// the other connection is in this very process, so a wait in the busy handler would keep it from
// ever committing: the claim would fail after the busy timeout and say so on stderr. The same for
// the ledger checkpoint's write, every minute while transfers are made.

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

const others: Db[] = [];
afterEach(() => {
  for (const other of others.splice(0)) {
    if (other.inTransaction) other.prepare('ROLLBACK').run();
    other.close();
  }
  vi.restoreAllMocks();
});

describe("the job runner and webhook deliveries while another connection holds the write lock", () => {
  it('claim the job and send the delivery once the lock is free, the server answering meanwhile', { timeout: 20_000 }, async () => {
    const engine = testEngine();
    writeConversation(engine.db, 6, 2);
    const key = apiKey(engine);
    const userId = engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).pluck().get() as number;
    const server = await startServer(engine, { metering: true });
    const other = openDb(engine.dbFile);
    others.push(other);
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));

    // The webhook goes to one of Skein's own inboxes.
    const inbox = (await server.request('/webhooks/inboxes', { method: 'POST', key })).json() as { url: string };
    await setWebhook(engine, userId, inbox.url);
    const received = async () =>
      ((await (await fetch(inbox.url)).json()) as { messages: { body: string }[] }).messages.map((m) => (JSON.parse(m.body) as { data: { job_id: number } }).data.job_id);
    const submitted = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob`, { method: 'POST', key });
    expect(submitted.status, submitted.text).toBe(200);
    const jobId = (submitted.json() as { job_id: number }).job_id;

    // A pending job and a runner polling every 20 ms, while the lock is held.
    other.prepare('BEGIN IMMEDIATE').run();
    const runner = testRunner(engine, { mode: 'inline', pollMs: 20 });
    await ticks(10);
    expect(getJob(engine.db, jobId)?.status).toBe('pending');
    expect((await server.request('/jobs/999999', { key })).status).toBe(404);
    other.prepare('COMMIT').run();
    await runner.idle();
    expect(getJob(engine.db, jobId)?.status).toBe('success');
    await until(async () => (await received()).length === 1);

    // A delivery due while the lock is held: committed and locked again in one synchronous step,
    // so no poll runs in between.
    other.prepare('BEGIN IMMEDIATE').run();
    enqueueWebhook(other, jobId, userId, engine.clock.nowMs());
    other.prepare('COMMIT').run();
    other.prepare('BEGIN IMMEDIATE').run();
    await ticks(10);
    expect(await received()).toEqual([jobId]);
    expect((await server.request('/jobs/999999', { key })).status).toBe(404);
    other.prepare('COMMIT').run();
    await until(async () => (await received()).length === 2);
    expect(await received()).toEqual([jobId, jobId]);

    // Waiting for a lock is not a failure: nothing was said.
    expect(errors).toEqual([]);
    expect(engine.db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it("advance the ledger checkpoint once the lock is free", { timeout: 20_000 }, async () => {
    const engine = testEngine({ ledgerCheckpointEveryMs: 20 });
    // Waited for inside SQLite, the write would hold this thread for a minute: past the test's timeout.
    engine.db.pragma('busy_timeout = 60000');
    apiKey(engine);
    const userId = engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).pluck().get() as number;
    const other = openDb(engine.dbFile);
    others.push(other);
    const before = readCheckpoint(engine.db).seq;
    // A transfer, then the lock taken, in one synchronous step: no round runs in between.
    const seq = grant(engine.db, { transferId: 'grant:during-import', userId, amount: 5, nowMs: engine.clock.nowMs() }).transfer.seq;
    other.prepare('BEGIN IMMEDIATE').run();
    await ticks(20);
    expect(readCheckpoint(engine.db).seq).toBe(before);
    other.prepare('COMMIT').run();
    await until(() => readCheckpoint(engine.db).seq === seq);
    expect(engine.db.pragma('busy_timeout', { simple: true })).toBe(60000);
  });
});
