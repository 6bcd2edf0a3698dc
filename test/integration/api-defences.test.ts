import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey, DETAIL_ID, writeApiCorpus } from '../fixtures/api-corpus';

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const server = await startServer(engine);
  return { engine, server, key: apiKey(engine), port: Number(new URL(server.url).port) };
}

/** A raw HTTP exchange over a socket: the bytes sent are exactly the ones given. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(text);
  });
}

/** node:http lets a test set Host and Origin, which fetch forbids. */
function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('localhost defences', () => {
  it('refuses a Host that is not a loopback name (DNS rebinding), even with a valid key', async () => {
    const { port, key } = await setup();
    for (const host of ['evil.example', 'evil.example:80', '127.0.0.1.nip.io', '10.0.0.5', 'localhost.evil.example', '[::2]:80', '0.0.0.0']) {
      const res = await get(port, `/social/tweets/${DETAIL_ID}`, { host, authorization: `Bearer ${key}` });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.text)).toMatchObject({ status: 'error' });
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`, `LOCALHOST:${port}`, '127.1.2.3']) {
      expect((await get(port, `/social/tweets/${DETAIL_ID}`, { host, authorization: `Bearer ${key}` })).status, host).toBe(200);
    }
  });

  it('no CORS: a foreign Origin or a cross-site fetch is refused and no Access-Control header is ever sent', async () => {
    const { port, key } = await setup();
    const host = `127.0.0.1:${port}`;
    const auth = { host, authorization: `Bearer ${key}` };
    for (const origin of ['https://evil.example', 'null', `http://localhost:${port}`, 'http://127.0.0.1:1']) {
      const res = await get(port, `/social/tweets/${DETAIL_ID}`, { ...auth, origin });
      expect(res.status, origin).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(JSON.parse(res.text).message).toMatch(/origin/i);
    }
    const site = await get(port, `/social/tweets/${DETAIL_ID}`, { ...auth, 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    const own = await get(port, `/social/tweets/${DETAIL_ID}`, { ...auth, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await new Promise<number>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/social/tweets/1', method: 'OPTIONS', headers: { host, origin: 'https://evil.example', 'access-control-request-method': 'GET' } }, (res) => {
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        res.resume();
        resolve(res.statusCode!);
      });
      req.end();
    });
    expect(preflight).toBe(403);
  });

  it('limits URL length and path parameters (414), header size (431) and body size (413), each in the spec body', async () => {
    const { server, key, port } = await setup();
    const longUrl = await server.request(`/social/statuses/show?id=1&pad=${'a'.repeat(5000)}`, { key });
    expect(longUrl.status).toBe(414);
    expect(longUrl.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((longUrl.json() as { status: string }).status).toBe('error');

    const longParam = await server.request(`/social/tweets/${'1'.repeat(300)}`, { key });
    expect(longParam.status).toBe(414);
    expect((longParam.json() as { message: string }).message).toMatch(/path parameter is too long/);
    const badEncoding = await server.request('/social/tweets/%zz', { key });
    expect(badEncoding.status).toBe(422);
    expect((badEncoding.json() as { message: string }).message).toMatch(/'path'/);

    const big = await raw(port, `GET /social/tweets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(big).toContain('content-type: application/json; charset=utf-8'.replace('content-type', 'Content-Type'));
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 'error' });

    const body = await server.request('/social/search/asyncJob', {
      key,
      method: 'POST',
      body: JSON.stringify({ query: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(body.status).toBe(413);
    expect(body.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((body.json() as { status: string }).status).toBe('error');
  });

  it('answers garbage on the wire with a spec-shaped 400, and keeps serving', async () => {
    const { port, server, key } = await setup();
    const out = await raw(port, 'NOT-HTTP \x00\x01\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toEqual({ status: 'error', message: 'Malformed HTTP request.' });
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key })).status).toBe(200);
  });
});
