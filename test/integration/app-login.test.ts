import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../src/main/http/app';
import { createEngine } from '../../src/main/engine/engine';
import { appLoginToken, appLoginTokenPath, readAppLoginToken } from '../../src/main/engine/store/app-login-token';
import { SeededIds } from '../../src/main/engine/ids';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { logInTo } from '../helpers/app-login';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';

// Headless mode's login (issue 13, point 14): the app page and /app/* answer only a browser that
// opened the address `skein serve` printed (/?token=<the data dir's login token>) and so holds the
// session cookie. GET / without it says how to get in and holds no secret; the token lives in the
// data dir (0600), so the cookie outlives a restart on the same data dir.

function rendererDir(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>Skein</title></head><body><div id="root"></div></body></html>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  return dir;
}

async function setup() {
  const engine = testEngine();
  const server = await startServer(engine, { rendererDir: rendererDir() });
  const token = readAppLoginToken(engine.dataDir)!;
  return { engine, server, token };
}

const mint = { user: 'minted', credits: 1_000_000_000 };

describe('logging in to the app (headless mode)', () => {
  it('keeps the login token in the data dir, 0600, 64 hex digits, made once', async () => {
    const { engine, token } = await setup();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const path = appLoginTokenPath(engine.dataDir);
    expect(readFileSync(path, 'utf8')).toBe(`${token}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // A second start on the same data dir (other ids) finds it, and does not make another.
    expect(appLoginToken(engine.dataDir, new SeededIds('another start'))).toBe(token);
  });

  it('makes the file private again when it comes back readable by others, and replaces one that holds no token', () => {
    const dataDir = tempDir();
    const token = appLoginToken(dataDir, new SeededIds('a'));
    const path = appLoginTokenPath(dataDir);
    chmodSync(path, 0o644);
    expect(readAppLoginToken(dataDir)).toBe(token);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, 'not a token\n');
    const replaced = appLoginToken(dataDir, new SeededIds('b'));
    expect(replaced).toMatch(/^[0-9a-f]{64}$/);
    expect(replaced).not.toBe(token);
    expect(readFileSync(path, 'utf8')).toBe(`${replaced}\n`);
  });

  it('answers GET / without the cookie with how to get in, and nothing secret', async () => {
    const { server, token } = await setup();
    const page = await server.request('/');
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.text).toContain('Open Skein with its login address');
    expect(page.text).toContain('?token=');
    expect(page.text).toMatch(/npx skein app-url --port \d+/);
    expect(page.text).not.toContain(token);
    expect(page.text).not.toMatch(/[0-9a-f]{64}/);
    expect(page.text).not.toContain('<div id="root">');
  });

  it('refuses a wrong token with 403 and the same page, and a token given twice', async () => {
    const { server, token } = await setup();
    for (const query of [`token=${'0'.repeat(64)}`, 'token=', `token=${token.slice(0, 63)}`, `token=${token}&token=${token}`]) {
      const res = await server.request(`/?${query}`, { redirect: 'manual' });
      expect(res.status, query).toBe(403);
      expect(res.headers.get('set-cookie'), query).toBeNull();
      expect(res.text, query).toContain('is not this Skein');
      expect(res.text, query).not.toContain(token);
    }
  });

  it('exchanges the right token for an HttpOnly, SameSite=Strict cookie and sends the browser to /', async () => {
    const { server, token } = await setup();
    const res = await server.request(`/?token=${token}`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const setCookie = res.headers.get('set-cookie')!;
    const port = new URL(server.url).port;
    expect(setCookie).toMatch(new RegExp(`^skein-app-${port}=[0-9a-f]{64}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Strict$`));
    // The cookie holds a session value derived from the token, not the token itself.
    expect(setCookie).not.toContain(token);
    const cookie = setCookie.split(';')[0]!;
    const page = await server.request('/', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    expect(page.text).not.toContain(token);
    expect(page.text).not.toContain('skein-token');
  });

  it('mints no key without the cookie, whatever else the request carries; with it, it does', async () => {
    const { engine, server, token } = await setup();
    const keysCreate = (headers: Record<string, string>) =>
      server.request('/app/rpc/keys.create', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(mint) });
    const port = new URL(server.url).port;
    // The attack of issue 13: any local process GETs / and takes what the page hands out (a meta
    // token and a cookie, before the login), then mints itself credits.
    const page = await server.request('/');
    const handedOut = { 'x-skein-app': '1', 'x-skein-token': /[0-9a-f]{64}/.exec(page.text)?.[0] ?? '', cookie: (page.headers.get('set-cookie') ?? '').split(';')[0]! };
    // That, the login token as a header or as the cookie's value.
    for (const headers of <Record<string, string>[]>[
      handedOut,
      {},
      { 'x-skein-app': '1' },
      { 'x-skein-app': '1', 'x-skein-token': token },
      { 'x-skein-app': '1', cookie: `skein-app-${port}=${token}` },
      { 'x-skein-app': '1', cookie: `skein-session-${port}=${token}` },
    ]) {
      const res = await keysCreate(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ status: 'error' });
    }
    expect((await keysCreate({ 'x-skein-app': '1' })).json()).toMatchObject({ message: expect.stringMatching(/^Forbidden: this browser is not logged in to Skein/) });
    const before = (engine.db.prepare('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n;
    const { cookie } = await logInTo(server, engine.dataDir);
    const minted = await keysCreate({ 'x-skein-app': '1', cookie });
    expect(minted.status).toBe(200);
    expect((engine.db.prepare('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n).toBe(before + 1);
  });

  it('takes the same cookie after a restart on the same data dir (the session survives)', async () => {
    const dataDir = tempDir();
    const host = { host: '127.0.0.1:7878' };
    const first = createEngine({ dataDir });
    const before = await buildHttpApp(first, { rendererDir: rendererDir() });
    const token = readAppLoginToken(dataDir)!;
    const login = await before.inject({ method: 'GET', url: `/?token=${token}`, headers: host });
    expect(login.statusCode).toBe(303);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    await before.close();
    first.close();

    const second = createEngine({ dataDir });
    try {
      const after = await buildHttpApp(second, { rendererDir: rendererDir() });
      expect(readAppLoginToken(dataDir)).toBe(token);
      expect((await after.inject({ method: 'GET', url: '/', headers: { ...host, cookie } })).statusCode).toBe(200);
      const call = await after.inject({ method: 'POST', url: '/app/rpc/keys.list', headers: { ...host, cookie, 'x-skein-app': '1', 'content-type': 'application/json' }, payload: '{}' });
      expect(call.statusCode, call.body).toBe(200);
      expect((await after.inject({ method: 'GET', url: '/app/session', headers: { ...host, cookie, 'x-skein-app': '1' } })).statusCode).toBe(200);
      await after.close();
    } finally {
      second.close();
    }
    // Another data dir has another token: that cookie means nothing there.
    const other = createEngine({ dataDir: tempDir() });
    try {
      const elsewhere = await buildHttpApp(other, { rendererDir: rendererDir() });
      expect((await elsewhere.inject({ method: 'GET', url: '/', headers: { ...host, cookie } })).statusCode).toBe(403);
      await elsewhere.close();
    } finally {
      other.close();
    }
  });

  it('skein app-url prints the login address from the data dir, and says so when there is none', async () => {
    const { engine, token } = await setup();
    const printed = await runCli('app-url', '--port', '7999', '--data-dir', engine.dataDir);
    expect(printed.code, printed.err).toBe(0);
    expect(printed.out).toBe(`http://127.0.0.1:7999/?token=${token}`);
    expect((await runCli('app-url', '--data-dir', engine.dataDir)).out).toBe(`http://127.0.0.1:7878/?token=${token}`);
    const empty = await runCli('app-url', '--data-dir', tempDir());
    expect(empty.code).toBe(2);
    expect(empty.err).toContain("No login token in");
  });
});
