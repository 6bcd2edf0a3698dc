import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers, type AppHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { createKey } from '../../src/main/engine/keys';
import { setWebhook, signatureHeader, SIGNATURE_HEADER } from '../../src/main/engine/webhooks';
import { testEngine } from '../helpers/engine';

// Settings' "Send a test event" (issue 15): one signed POST of {"event":"test",...} to a real
// receiver on loopback; its outcome is the answer, and it is not a job's delivery.

const NO_KEYCHAIN = { available: false, message: 'No OS keychain is available (test).' };
const SECRET = 'a-secret-of-twenty-chars';
const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

async function receiver(status: number) {
  const seen: { body: string; signature: string | undefined }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      seen.push({ body, signature: req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

function app() {
  const engine = testEngine();
  const handlers: AppHandlers = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null, keychain: () => NO_KEYCHAIN });
  closers.push(() => handlers.close());
  return { engine, h: handlers.handlers, userId: createKey(engine, 'analyst').user.id };
}

describe('webhooks.test: a test event to the saved URL', () => {
  it('POSTs a signed {"event":"test"} once and answers what the receiver said; no delivery is logged', async () => {
    const { engine, h, userId } = app();
    const hook = await receiver(200);
    await setWebhook(engine, userId, hook.url, SECRET);
    const r = await h['webhooks.test']({ user_id: userId });
    expect(r).toMatchObject({ url: hook.url, ok: true, http_status: 200, error: null, signed: true });
    expect(hook.seen).toHaveLength(1);
    const body = JSON.parse(hook.seen[0]!.body) as { event: string; data: { user: string; sent_at: string } };
    expect(body).toMatchObject({ event: 'test', data: { user: 'analyst' } });
    const t = Number(/t=(\d+)/.exec(hook.seen[0]!.signature ?? '')![1]);
    expect(hook.seen[0]!.signature).toBe(signatureHeader(SECRET, hook.seen[0]!.body, t * 1000));
    expect(await h['webhooks.deliveries']({ user_id: userId })).toEqual([]);
  });

  it('says what went wrong: a receiver answering 500, no URL saved, an unknown user', async () => {
    const { engine, h, userId } = app();
    expect(await dispatch(h, 'webhooks.test', { user_id: userId })).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining('has no webhook URL') } });
    const hook = await receiver(500);
    await setWebhook(engine, userId, hook.url);
    expect(await h['webhooks.test']({ user_id: userId })).toMatchObject({ ok: false, http_status: 500, signed: false, error: expect.stringContaining('HTTP 500') });
    expect(await dispatch(h, 'webhooks.test', { user_id: 999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await dispatch(h, 'webhooks.test', { user_id: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });
});
