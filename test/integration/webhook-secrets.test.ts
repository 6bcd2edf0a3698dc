import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { deliveriesOfJob, setWebhook, webhookSettings, type SecretKeeper } from '../../src/main/engine/webhooks';
import { SECRET_GIVE_UP_MS, SECRET_RETRY_MS } from '../../src/main/engine/webhooks/dispatcher';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// Webhook signing secrets (issue 13 point 13) in one process: an OS keychain stand-in that can stop
// answering (a keyring locked after the start, a Secret Service that went away), to show that a
// delivery whose secret cannot be read waits and is never sent unsigned; the refusals of a secret
// that cannot sign; and what the app's Settings is told. The real Secret Service (gnome-keyring in a
// D-Bus session) and the real `skein` processes are webhook-secret-keychain.test.ts.

const servers: Server[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** The OS keychain's part, in memory; `answering = false` makes it fail as a locked keyring does. */
function osKeychain() {
  const entries = new Map<string, string>();
  const state = { answering: true };
  const refuse = () => Promise.reject(new Error('Platform failure: the collection is locked'));
  const keychain: SecretKeeper = {
    get: (account) => (state.answering ? Promise.resolve(entries.get(account) ?? null) : refuse()),
    set: (account, secret) => (state.answering ? (entries.set(account, secret), Promise.resolve()) : refuse()),
    delete: (account) => (state.answering ? Promise.resolve(entries.delete(account)) : refuse()),
  };
  return { keychain, entries, state };
}

async function receiver(): Promise<{ url: string; received: { headers: IncomingMessage['headers']; body: string }[] }> {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, received };
}

function verified(secret: string, m: { headers: IncomingMessage['headers']; body: string }): boolean {
  const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(m.headers['x-skein-signature']));
  return !!sig && sig[2] === createHmac('sha256', secret).update(`${sig[1]}.${m.body}`).digest('hex');
}

async function setup(keychain: SecretKeeper | null) {
  const engine = testEngine({ keychain });
  writeConversation(engine.db, 6, 2);
  const key = apiKey(engine);
  const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).get() as { id: number }).id;
  const server = await startServer(engine);
  const startJob = async () => {
    const res = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob?max_count=1`, { method: 'POST', key });
    expect(res.status, res.text).toBe(200);
    return (res.json() as { job_id: number }).job_id;
  };
  const columns = () => engine.db.prepare('SELECT webhook_secret, webhook_secret_ref FROM api_users WHERE id = ?').get(userId);
  return { engine, key, userId, server, startJob, columns };
}

const SECRET = 'kept-in-the-keychain-0123456789';

describe('webhook signing secrets', () => {
  it('are kept in the keychain where one answers: the database names the entry, and deliveries are signed with it', async () => {
    const os = osKeychain();
    const t = await setup(os.keychain);
    const hook = await receiver();
    const put = await t.server.request('/webhooks', { method: 'PUT', key: t.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: hook.url, secret: SECRET }) });
    expect(put.json()).toEqual({ url: hook.url, hasSecret: true, secretKeptIn: 'keychain' });
    const ref = (t.columns() as { webhook_secret_ref: string }).webhook_secret_ref;
    expect(t.columns()).toEqual({ webhook_secret: null, webhook_secret_ref: expect.stringMatching(new RegExp(`^webhook-secret-${t.userId}-[0-9a-f]{16}$`)) });
    expect([...os.entries]).toEqual([[ref, SECRET]]);
    // A new secret overwrites the same entry; removing it deletes the entry.
    await setWebhook(t.engine, t.userId, hook.url, `${SECRET}-2`);
    expect([...os.entries]).toEqual([[ref, `${SECRET}-2`]]);
    const runner = testRunner(t.engine, { mode: 'inline' });
    const jobId = await t.startJob();
    await runner.idle();
    expect(hook.received).toHaveLength(1);
    expect(verified(`${SECRET}-2`, hook.received[0]!)).toBe(true);
    expect(deliveriesOfJob(t.engine.db, jobId)[0]).toMatchObject({ state: 'delivered', http_status: 200 });
    expect(await setWebhook(t.engine, t.userId, hook.url, null)).toEqual({ url: hook.url, hasSecret: false, secretKeptIn: null });
    expect(os.entries.size).toBe(0);
    expect(t.columns()).toEqual({ webhook_secret: null, webhook_secret_ref: null });
  });

  it('holds a delivery whose secret cannot be read, saying why; sends it signed once the keychain answers; fails it, unsent, after a day', async () => {
    const os = osKeychain();
    const t = await setup(os.keychain);
    const hook = await receiver();
    await setWebhook(t.engine, t.userId, hook.url, SECRET);
    const runner = testRunner(t.engine, { mode: 'inline' });
    const app = createHandlers(t.engine, { events: new EventHub(), mode: 'headless', apiUrl: () => t.server.url });

    os.state.answering = false;
    const held = await t.startJob();
    await runner.idle();
    const waiting = deliveriesOfJob(t.engine.db, held)[0]!;
    const why =
      'Not sent yet: the OS keychain did not give its signing secret (Platform failure: the collection is locked). ' +
      'Tried again every minute for 24 h; a webhook is never sent unsigned.';
    expect(waiting).toMatchObject({ state: 'pending', error: why, started_at_ms: null, retry_at_ms: t.engine.clock.nowMs() + SECRET_RETRY_MS });
    // The app's delivery log and `skein webhooks show` say why it waits.
    expect((await app.handlers['webhooks.deliveries']({ user_id: t.userId }))[0]).toMatchObject({ job_id: held, ok: false, error: why });
    const shown = await runCli('webhooks', 'show', '--user', 'tester', '--data-dir', t.engine.dataDir);
    expect(shown.out).toContain(`job ${held}  pending: ${why}`);
    await new Promise((r) => setTimeout(r, 1_200)); // several polls before the minute is up: nothing is sent
    expect(hook.received).toHaveLength(0);

    os.state.answering = true;
    t.engine.clock.advance(SECRET_RETRY_MS);
    runner.webhooks.kick();
    await runner.webhooks.idle();
    expect(hook.received).toHaveLength(1);
    expect(verified(SECRET, hook.received[0]!)).toBe(true);
    expect(deliveriesOfJob(t.engine.db, held)[0]).toMatchObject({ state: 'delivered', http_status: 200, error: null, retry_at_ms: null });

    // A keychain that never answers again: after a day the delivery fails, still unsent.
    os.state.answering = false;
    const lost = await t.startJob();
    await runner.idle();
    t.engine.clock.advance(SECRET_GIVE_UP_MS);
    runner.webhooks.kick();
    await runner.webhooks.idle();
    expect(deliveriesOfJob(t.engine.db, lost)[0]).toMatchObject({
      state: 'failed',
      http_status: null,
      started_at_ms: null,
      error: 'Not sent: the OS keychain did not give its signing secret (Platform failure: the collection is locked). Tried every minute for 24 h; a webhook is never sent unsigned.',
    });
    expect(hook.received).toHaveLength(1);
    app.close();
  });

  it('says so when the keychain entry is gone, rather than sending unsigned', async () => {
    const os = osKeychain();
    const t = await setup(os.keychain);
    const hook = await receiver();
    await setWebhook(t.engine, t.userId, hook.url, SECRET);
    os.entries.clear(); // deleted by hand in the keychain's own app
    const runner = testRunner(t.engine, { mode: 'inline' });
    const jobId = await t.startJob();
    await runner.idle();
    const ref = (t.columns() as { webhook_secret_ref: string }).webhook_secret_ref;
    expect(deliveriesOfJob(t.engine.db, jobId)[0]!.error).toBe(
      `Not sent yet: its signing secret is no longer in the OS keychain (entry "Skein" / "${ref}"): set it again with 'skein webhooks set --secret'. ` +
        'Tried again every minute for 24 h; a webhook is never sent unsigned.',
    );
    expect(hook.received).toHaveLength(0);
  });

  it('refuses a secret that cannot sign, with a clear message, and changes nothing', async () => {
    const os = osKeychain();
    const t = await setup(os.keychain);
    await setWebhook(t.engine, t.userId, 'https://example.org/hook', SECRET);
    const before = t.columns();
    const app = createHandlers(t.engine, { events: new EventHub(), mode: 'headless', apiUrl: () => t.server.url });
    const cases: [unknown, string][] = [
      ['', "Invalid parameter 'secret': it is empty. A secret is 16 to 256 characters; to remove it send null (skein webhooks set --no-secret)."],
      ['s'.repeat(257), "Invalid parameter 'secret': from 16 to 256 characters (this one has 257)."],
      ['fifteen-chars!!', "Invalid parameter 'secret': from 16 to 256 characters (this one has 15)."],
      [`${SECRET}\n`, "Invalid parameter 'secret': it holds a line break or another control character; give printable characters only."],
      [1234567890123456, "Invalid parameter 'secret': expected text (null removes the secret)."],
    ];
    for (const [secret, message] of cases) {
      const put = await t.server.request('/webhooks', { method: 'PUT', key: t.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.org/other', secret }) });
      expect([put.status, put.json()]).toEqual([422, { status: 'error', message }]);
      expect(await dispatch(app.handlers, 'webhooks.set', { user_id: t.userId, url: 'https://example.org/other', secret })).toEqual({ ok: false, error: { code: 'invalid', message } });
      if (typeof secret !== 'string') continue;
      const cli = await runCli('webhooks', 'set', '--user', 'tester', '--url', 'https://example.org/other', '--secret', secret, '--data-dir', t.engine.dataDir);
      expect([cli.code, cli.err]).toEqual([2, expect.stringContaining(message)]);
    }
    expect(t.columns()).toEqual(before);
    expect(webhookSettings(t.engine.db, t.userId)).toEqual({ url: 'https://example.org/hook', hasSecret: true, secretKeptIn: 'keychain' });
    expect([...os.entries.values()]).toEqual([SECRET]);
    app.close();
  });

  it("tells the app's Settings where the secret is kept: the keychain, or the database where none answers", async () => {
    for (const [keychain, place] of [[osKeychain().keychain, 'keychain'], [null, 'database']] as const) {
      const t = await setup(keychain);
      const app = createHandlers(t.engine, { events: new EventHub(), mode: 'headless', apiUrl: () => t.server.url });
      const h = app.handlers;
      const set = await h['webhooks.set']({ user_id: t.userId, url: 'https://example.org/hook', secret: SECRET });
      expect(set).toMatchObject({ webhook_url: 'https://example.org/hook', webhook_secret_kept_in: place });
      expect((await h['users.list']()).find((u) => u.id === t.userId)).toMatchObject({ webhook_secret_kept_in: place });
      // Saving the URL alone keeps the secret; null removes it.
      expect(await h['webhooks.set']({ user_id: t.userId, url: 'https://example.org/moved' })).toMatchObject({ webhook_secret_kept_in: place });
      expect(await h['webhooks.set']({ user_id: t.userId, url: 'https://example.org/moved', secret: null })).toMatchObject({ webhook_secret_kept_in: null });
      expect(t.columns()).toEqual({ webhook_secret: null, webhook_secret_ref: null });
      app.close();
    }
  });
});
