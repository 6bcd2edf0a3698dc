import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveriesOfJob, setWebhook } from '../../src/main/engine/webhooks';
import { enqueueWebhook } from '../../src/main/engine/webhooks/outbox';
import type { Db } from '../../src/main/engine/store/db';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// A full disk under the webhook dispatcher's bookkeeping (issue 13). The dispatcher's writes ran
// where nothing caught them: recording a call's outcome failed silently (the row stayed 'sending',
// then "Skein stopped during the call" at the next start, though the call had been answered), and
// the claim of the next delivery, made from the end of a call's promise, threw there: an unhandled
// rejection, which ends a Node 20 process. The disk fills on demand: PRAGMA max_page_count at the
// database's size, and a TEMP trigger that makes every update of a delivery need a new page, so
// SQLite itself answers SQLITE_FULL ("database or disk is full") to exactly those writes.

const servers: Server[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

function fillDisk(db: Db): void {
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  db.exec(`CREATE TEMP TRIGGER disk_full AFTER UPDATE ON main.webhook_deliveries BEGIN INSERT INTO test_filler VALUES (randomblob(16384)); END`);
}

function freeDisk(db: Db): void {
  db.exec('DROP TRIGGER temp.disk_full');
  db.pragma(`max_page_count = ${2 ** 30}`);
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('a full disk under webhook delivery', () => {
  it('keeps the process alive, says so once, sends the waiting delivery later and records the answered one without calling again', { timeout: 30_000 }, async () => {
    const engine = testEngine();
    writeConversation(engine.db, 6, 2);
    engine.db.exec('CREATE TABLE test_filler (b BLOB)');
    const key = apiKey(engine);
    const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).get() as { id: number }).id;
    const server = await startServer(engine);
    const runner = testRunner(engine, { mode: 'inline', webhookTimeoutMs: 2_000 });
    const startJob = async () => {
      const res = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob`, { method: 'POST', key });
      expect(res.status, res.text).toBe(200);
      return (res.json() as { job_id: number }).job_id;
    };
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));

    // Job 2 ends before the webhook is set; its delivery is put in the outbox while job 1's call
    // is in progress, so it waits, unclaimed, for the end of that call.
    const second = await startJob();
    await runner.idle();
    const received: number[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push((JSON.parse(body) as { data: { job_id: number } }).data.job_id);
        if (received.length === 1) {
          enqueueWebhook(engine.db, second, userId, engine.clock.nowMs());
          fillDisk(engine.db);
        }
        res.writeHead(200).end('ok');
      });
    });
    servers.push(hook);
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    await setWebhook(engine, userId, `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`);
    const first = await startJob();
    await until(() => received.length === 1);
    await runner.webhooks.idle();
    await new Promise((r) => setTimeout(r, 1_200)); // the runner's polls kick the dispatcher: each write is refused again

    expect(received).toEqual([first]);
    expect(deliveriesOfJob(engine.db, first)[0]).toMatchObject({ state: 'sending', http_status: null });
    expect(deliveriesOfJob(engine.db, second)[0]).toMatchObject({ state: 'pending', started_at_ms: null });
    expect(errors.filter((l) => l.includes('webhook'))).toEqual(['Skein: cannot record webhook deliveries (database or disk is full); trying again every poll.']);
    expect((await server.request(`/jobs/${first}`, { key })).status).toBe(200); // still serving

    freeDisk(engine.db);
    await until(() => deliveriesOfJob(engine.db, second)[0]!.state === 'delivered');
    await runner.webhooks.idle();
    // The answered call is recorded as it was answered, not made again; the waiting one went once.
    expect(received).toEqual([first, second]);
    expect(deliveriesOfJob(engine.db, first)[0]).toMatchObject({ state: 'delivered', http_status: 200, error: null });
    expect(deliveriesOfJob(engine.db, second)[0]).toMatchObject({ state: 'delivered', http_status: 200 });
    expect(errors.filter((l) => l.includes('webhook'))).toHaveLength(1);
  });
});
