import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { tempDir } from '../helpers/temp';
import { logInTo } from '../helpers/app-login';

// The headless transport of the contract over real HTTP: a browser logged in with the data dir's
// login token carries a session cookie; calls without it (or from another origin, or without the
// header x-skein-app) are refused; events arrive as server-sent events. The login itself is
// tested in app-login.test.ts.
async function setup() {
  const engine = testEngine();
  const tour = seedCorpus(engine.db, { scale: 'small', seed: 3 });
  const rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>Skein</title></head><body></body></html>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  const server = await startServer(engine, { rendererDir });
  // The cookie `skein-app-<port>=<session>` a browser gets from the login address (a script sends it back as a header).
  const { token, cookie } = await logInTo(server, engine.dataDir);
  const page = await server.request('/', { headers: { cookie } });
  const app = { cookie, 'x-skein-app': '1' };
  const rpc = (name: string, args: unknown, headers: Record<string, string> = app) =>
    server.request(`/app/rpc/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(args) });
  return { engine, tour, server, page, token, rpc, cookie, app };
}

describe('app RPC over HTTP (headless mode)', () => {
  it('serves the page to a logged-in browser with a strict CSP, and never the raw index.html', async () => {
    const { page, server, cookie } = await setup();
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Skein</title>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect((await server.request('/index.html', { headers: { cookie } })).text).not.toContain('<title>Skein</title>');
    expect((await server.request('/assets/app.js')).status).toBe(200);
  });

  it('answers a call with the session cookie, exact ids included', async () => {
    const { rpc, tour } = await setup();
    const res = await rpc('post.get', { id: tour.ids_above_2_53.post_id_str });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`"id_str":"${tour.ids_above_2_53.post_id_str}"`);
  });

  it('refuses a call without the cookie, with a wrong one, without x-skein-app, or from another origin', async () => {
    const { rpc, app, cookie, tour } = await setup();
    const args = { id: tour.ids_above_2_53.post_id_str };
    expect((await rpc('post.get', args, {})).status).toBe(403);
    expect((await rpc('post.get', args, { 'x-skein-app': '1' })).status).toBe(403);
    expect((await rpc('post.get', args, { 'x-skein-app': '1', cookie: cookie.replace(/=.*/, `=${'f'.repeat(64)}`) })).status).toBe(403);
    const bare = await rpc('post.get', args, { cookie });
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.text)).toMatchObject({ status: 'error', message: 'Forbidden: send the header x-skein-app: 1.' });
    const foreign = await rpc('post.get', args, { ...app, origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text)).toMatchObject({ status: 'error', message: expect.stringMatching(/origin/i) });
    expect((await rpc('post.get', args, { ...app, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it("answers a handler's refusal as a 200 carrying the code and words, so the browser logs no failed request", async () => {
    const { rpc } = await setup();
    const code = async (name: string, args: unknown) => {
      const r = await rpc(name, args);
      expect(r.status).toBe(200);
      return (JSON.parse(r.text) as { error: { code: string } }).error;
    };
    expect(await code('search.page', { query: '(cats' })).toMatchObject({ code: 'invalid', position: { column: expect.any(Number) } });
    expect(await code('post.get', { id: '1' })).toMatchObject({ code: 'not_found' });
    expect(await code('no.such', {})).toMatchObject({ code: 'not_found' });
    expect(await code('post.get', 'x')).toMatchObject({ code: 'invalid' });
  });

  it("serves the app's reads free and past 120 a minute, leaving a script's window and credits to the script", async () => {
    const { rpc, tour, engine, server } = await setup();
    const { key } = createKey(engine, 'app');
    const before = balanceOf(engine.db, APP_USER_ID);
    const id = tour.large_conversation_root.id_str;
    // The engine's clock stands still: all 130 calls fall in one minute.
    for (let i = 0; i < 65; i++) {
      expect((await rpc('post.get', { id })).status).toBe(200);
      expect((await rpc('post.replies', { id })).status).toBe(200);
    }
    expect(balanceOf(engine.db, APP_USER_ID)).toEqual(before);
    // A script holding the app user's key still has its whole window and pays for its own read.
    const script = await server.request(`/social/tweets/${id}`, { key });
    expect(script.status).toBe(200);
    expect(script.headers.get('ratelimit')).toMatch(/^"per-user";r=119;/);
    expect(balanceOf(engine.db, APP_USER_ID).posted).toBe(before.posted - 1);
  });

  it('streams engine events to the page as server-sent events', async () => {
    const { server, engine, cookie } = await setup();
    const url = new URL(`${server.url}/app/events`);
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(url, { headers: { cookie } }, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream');
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes('event: inbox.received')) {
            req.destroy();
            resolve(text);
          }
        });
        // Once subscribed, something happens in the store: a webhook inbox receives a post.
        setTimeout(() => {
          void (async () => {
            const { createInbox, recordInboxMessage } = await import('../../src/main/engine/webhooks');
            const t = createInbox(engine.db, engine.ids, 1, 0);
            recordInboxMessage(engine.db, t, { received_at_ms: 1, content_type: 'application/json', headers: {}, body: '{"event":"job_finished"}' });
          })();
        }, 100);
      });
      req.on('error', reject);
      req.end();
    });
    expect(received).toMatch(/event: inbox.received\ndata: \{"id":\d+,"received_ms":1,"body":"\{\\"event\\":\\"job_finished\\"\}"\}/);
  });

  it('refuses the event stream without the session cookie; a token in the URL is not taken', async () => {
    const { server, token, cookie } = await setup();
    expect(cookie).toMatch(new RegExp(`^skein-app-${new URL(server.url).port}=[0-9a-f]{64}$`));
    expect((await server.request('/app/events')).status).toBe(403);
    expect((await server.request(`/app/events?token=${token}`)).status).toBe(403);
    expect((await server.request('/app/events', { headers: { cookie: cookie.replace(/=.*/, '=nope') } })).status).toBe(403);
    expect((await server.request('/app/events', { headers: { cookie, 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
  });

  it('tells a tab whether the server is back and still knows it, giving away nothing', async () => {
    const { server, app, cookie } = await setup();
    const session = await server.request('/app/session', { headers: app });
    expect(session.status).toBe(200);
    expect(session.json()).toEqual({ value: { logged_in: true } });
    expect(session.headers.get('set-cookie')).toBeNull();
    expect(session.headers.get('cache-control')).toBe('no-store');
    // Without the cookie, without the custom header (all a foreign page can send without a preflight), or cross-site: refused.
    const stranger = await server.request('/app/session', { headers: { 'x-skein-app': '1' } });
    expect(stranger.status).toBe(403);
    expect(stranger.json()).toMatchObject({ status: 'error', message: expect.stringMatching(/^Forbidden: this browser is not logged in to Skein/) });
    expect((await server.request('/app/session', { headers: { cookie } })).status).toBe(403);
    expect((await server.request('/app/session', { headers: { ...app, 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await server.request('/app/session', { headers: { ...app, origin: 'http://evil.example' } })).status).toBe(403);
  });

  it('ends open event streams when the server closes, so a stop never waits for a browser tab', async () => {
    const { server, cookie } = await setup();
    const ended = new Promise<string>((resolve, reject) => {
      const req = httpRequest(new URL(`${server.url}/app/events`), { headers: { cookie } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(text));
        // Subscribed: now stop the server while the stream is open.
        setTimeout(() => void server.app.close(), 50);
      });
      req.on('error', reject);
      req.end();
    });
    expect(await ended).toContain(': subscribed to job.progress');
  });

  it('takes an uploaded file into the data dir (headless drop), only with the session cookie', async () => {
    const { server, app, cookie, engine } = await setup();
    const send = (headers: Record<string, string>) =>
      server.request('/app/upload?name=../../evil name.jsonl', { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, body: 'line 1\nline 2\n' });
    expect((await send({})).status).toBe(403);
    expect((await send({ cookie })).status).toBe(403);
    const ok = await send(app);
    expect(ok.status).toBe(200);
    const { path, bytes } = (JSON.parse(ok.text) as { value: { path: string; bytes: number } }).value;
    expect(bytes).toBe(14);
    // The name is reduced to a plain file name inside <data dir>/imports: no path escapes it.
    expect(path.startsWith(join(engine.dataDir, 'imports') + '/')).toBe(true);
    expect(path).toMatch(/[0-9a-f]{8}-evil name\.jsonl$/);
    expect(readFileSync(path, 'utf8')).toBe('line 1\nline 2\n');
    const wrongType = await server.request('/app/upload?name=x', { method: 'POST', headers: { 'content-type': 'text/plain', ...app }, body: 'x' });
    expect(wrongType.status).toBeGreaterThanOrEqual(400);
    expect(wrongType.status).toBeLessThan(500);
  });
});
