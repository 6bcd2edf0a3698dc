import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { cancelJob } from '../../src/main/engine/jobs';
import { deliveriesOfJob, setWebhook } from '../../src/main/engine/webhooks';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// Spec section 6 against real local receivers (node:http): one answering 200, one 500, one that
// never answers. Each delivery is recorded; none is retried; a hanging receiver holds up nothing.

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function receiver(answer: (res: ServerResponse) => void): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      answer(res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/hook`, received };
}

async function setup() {
  const engine = testEngine();
  writeConversation(engine.db, 6, 2);
  const key = apiKey(engine);
  const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).get() as { id: number }).id;
  const server = await startServer(engine);
  const runner = testRunner(engine, { mode: 'inline', webhookTimeoutMs: 400 });
  const startJob = async (qs = '') => {
    const res = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob${qs}`, { method: 'POST', key });
    expect(res.status, res.text).toBe(200);
    return (res.json() as { job_id: number }).job_id;
  };
  return { engine, key, userId, server, runner, startJob };
}

describe('webhooks (spec 6)', () => {
  it('POSTs job_finished with the body of GET /jobs/<id>; 200 is recorded as delivered', async () => {
    const { engine, key, userId, server, runner, startJob } = await setup();
    const hook = await receiver((res) => res.writeHead(200).end('ok'));
    await setWebhook(engine, userId, hook.url);
    const jobId = await startJob();
    await runner.idle();
    expect(hook.received).toHaveLength(1);
    const sent = JSON.parse(hook.received[0]!.body) as { event: string; data: unknown };
    expect(sent.event).toBe('job_finished');
    const polled = (await server.request(`/jobs/${jobId}`, { key })).json();
    expect(sent.data).toEqual(polled);
    expect(hook.received[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(hook.received[0]!.headers['x-skein-signature']).toBeUndefined();
    const [d] = deliveriesOfJob(engine.db, jobId);
    expect(d).toMatchObject({ state: 'delivered', http_status: 200, error: null, url: hook.url });
    expect(d!.finished_at_ms).not.toBeNull();
  });

  it('records any other answer as failed and never retries it; an error job is announced too', async () => {
    const { engine, userId, runner, startJob } = await setup();
    const hook = await receiver((res) => res.writeHead(500).end('boom'));
    await setWebhook(engine, userId, hook.url);
    const jobId = await startJob();
    await runner.idle();
    // A job that ends in error (cancelled while pending, no runner about) is announced as well.
    await runner.stop();
    const pendingId = await startJob();
    cancelJob(engine.db, pendingId, engine.clock.nowMs());
    const again = testRunner(engine, { mode: 'inline', webhookTimeoutMs: 400 });
    await again.idle();
    await new Promise((r) => setTimeout(r, 1200)); // several polls: nothing is sent again
    await again.idle();
    const bodies = hook.received.map((r) => JSON.parse(r.body) as { data: { job_id: number; status: string; message?: string } });
    expect(bodies.map((b) => b.data.job_id).sort()).toEqual([jobId, pendingId].sort());
    const cancelled = bodies.find((b) => b.data.job_id === pendingId)!;
    expect(cancelled.data).toMatchObject({ status: 'error', message: 'Cancelled by the user' });
    const [d] = deliveriesOfJob(engine.db, jobId);
    expect(d).toMatchObject({ state: 'failed', http_status: 500 });
    expect(d!.error).toContain('500');
  });

  it('gives up on a receiver that never answers after the timeout, without holding up other jobs', async () => {
    const { engine, userId, runner, startJob, server, key } = await setup();
    const hook = await receiver(() => undefined); // never answers
    await setWebhook(engine, userId, hook.url);
    const first = await startJob();
    await new Promise((r) => setTimeout(r, 100));
    // While the first delivery hangs, the next job runs to its end.
    const second = await startJob('?max_count=1');
    const until = Date.now() + 5000;
    while (((await server.request(`/jobs/${second}`, { key })).json() as { status: string }).status !== 'success' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(((await server.request(`/jobs/${second}`, { key })).json() as { status: string }).status).toBe('success');
    await runner.idle();
    const [d] = deliveriesOfJob(engine.db, first);
    expect(d).toMatchObject({ state: 'failed', http_status: null });
    expect(d!.error).toMatch(/timeout/);
    expect(hook.received.length).toBe(2);
  });

  it('signs deliveries with the user\'s secret, and the inbox records what it receives', async () => {
    const { engine, userId, runner, startJob, server, key } = await setup();
    const inbox = (await server.request('/webhooks/inboxes', { method: 'POST', key })).json() as { token: string; url: string };
    expect(inbox.url).toBe(`${server.url}/inbox/${inbox.token}`);
    const secret = 'a-shared-secret-of-some-length';
    await setWebhook(engine, userId, inbox.url, secret);
    const jobId = await startJob();
    await runner.idle();
    const listed = (await fetch(inbox.url)).json() as Promise<{ messages: { body: string; headers: Record<string, string> }[] }>;
    const { messages } = await listed;
    expect(messages).toHaveLength(1);
    const m = messages[0]!;
    expect((JSON.parse(m.body) as { data: { job_id: number } }).data.job_id).toBe(jobId);
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(m.headers['x-skein-signature']!)!;
    expect(sig[2]).toBe(createHmac('sha256', secret).update(`${sig[1]}.${m.body}`).digest('hex'));
    expect(deliveriesOfJob(engine.db, jobId)[0]).toMatchObject({ state: 'delivered', http_status: 200 });
    // Unknown inbox: 404 in the spec's error shape.
    const missing = await fetch(`${server.url}/inbox/${'0'.repeat(32)}`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
  });
});
