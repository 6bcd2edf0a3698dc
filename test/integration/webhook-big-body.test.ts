import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveriesOfJob, setWebhook } from '../../src/main/engine/webhooks';
import { WEBHOOK_MAX_BODY_BYTES } from '../../src/main/engine/webhooks/deliver';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// Issue 13: a receiver that answers 200 with an endless body, or one that trickles its body
// forever, against real loopback receivers (node:http). Skein reads a few KiB, then drops the
// connection; its deadline covers the body too. The outcome is the status line's (200: delivered).

const MIB = 1024 * 1024;
/** Well above what loopback socket buffers hold (~3.75 MiB here), far below a drained body. */
const KERNEL_BUFFERS_BOUND_BYTES = 16 * MIB;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

const servers: Server[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/**
 * A receiver that answers 200 and then calls `stream` until the connection closes. `closed`
 * resolves with the body bytes the receiver had flushed to its socket by then.
 */
async function receiver(stream: (res: ServerResponse, written: (n: number) => void) => void): Promise<{ url: string; closed: Promise<number> }> {
  let resolveClosed!: (n: number) => void;
  const closed = new Promise<number>((r) => (resolveClosed = r));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      let writtenBytes = 0;
      res.on('close', () => resolveClosed(writtenBytes));
      res.writeHead(200, { 'content-type': 'text/plain' });
      stream(res, (n) => (writtenBytes += n));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, closed };
}

async function runJobWithHook(url: string, webhookTimeoutMs: number) {
  const engine = testEngine();
  writeConversation(engine.db, 6, 2);
  const key = apiKey(engine);
  const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).get() as { id: number }).id;
  const server = await startServer(engine);
  const runner = testRunner(engine, { mode: 'inline', webhookTimeoutMs });
  await setWebhook(engine, userId, url);
  const res = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob`, { method: 'POST', key });
  expect(res.status, res.text).toBe(200);
  const jobId = (res.json() as { job_id: number }).job_id;
  await runner.idle();
  return deliveriesOfJob(engine.db, jobId);
}

describe('webhook answers with hostile bodies (issue 13)', () => {
  it('reads only a few KiB of an endless 200 body, drops the connection, and records the delivery', async () => {
    // Writes 64 KiB chunks for as long as the socket is open, counting a chunk once it is flushed
    // (write callback), and waiting for 'drain' so the count is what reached the socket.
    const hook = await receiver((res, written) => {
      const pump = (): void => {
        while (!res.destroyed) {
          const more = res.write(CHUNK, (err) => {
            if (!err) written(CHUNK.length);
          });
          if (!more) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    // A deadline long enough that the byte cap, not the deadline, is what ends the read.
    const [d] = await runJobWithHook(hook.url, 5_000);
    expect(d).toMatchObject({ state: 'delivered', http_status: 200, error: null });
    const writtenBytes = await hook.closed;
    // The bound is the kernel's, not Skein's: on loopback the socket buffers take ~3.75 MiB
    // (tcp_wmem max 4 MiB) even from a client that reads nothing at all, so the receiver has
    // "written" that much before any close can reach it. Reading the whole body until this 5 s
    // deadline (the old code) had the receiver write ~650 MiB.
    expect(writtenBytes).toBeLessThan(KERNEL_BUFFERS_BOUND_BYTES);
  });

  it('cuts a body that trickles forever at the deadline', async () => {
    // One byte every 20 ms: it never reaches WEBHOOK_MAX_BODY_BYTES before the deadline, so only
    // the deadline can end the read.
    const hook = await receiver((res, written) => {
      const timer = setInterval(() => {
        if (res.destroyed) return;
        res.write('x', (err) => {
          if (!err) written(1);
        });
      }, 20);
      res.on('close', () => clearInterval(timer));
    });
    const [d] = await runJobWithHook(hook.url, 300);
    expect(d).toMatchObject({ state: 'delivered', http_status: 200, error: null });
    const writtenBytes = await hook.closed;
    expect(writtenBytes).toBeLessThan(WEBHOOK_MAX_BODY_BYTES);
  }, 15_000);
});
