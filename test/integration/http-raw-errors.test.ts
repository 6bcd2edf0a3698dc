import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey, DETAIL_ID, writeApiCorpus } from '../fixtures/api-corpus';

// Requests Node's HTTP layer handles before Fastify sees them (issue 13): each must still be
// answered, with a status line and the spec's error body {"status":"error","message":"..."}.

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const server = await startServer(engine);
  return { server, key: apiKey(engine), port: Number(new URL(server.url).port) };
}

/** Sends exactly these bytes and reads until the server closes the connection. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('close', () => resolve(out));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? resolve(out) : reject(err)));
    socket.write(text);
  });
}

interface RawAnswer {
  statusLine: string;
  headers: Map<string, string>;
  body: { status: string; message: string };
}

function parse(answer: string): RawAnswer {
  const split = answer.indexOf('\r\n\r\n');
  expect(split, `no complete answer: ${JSON.stringify(answer.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...lines] = answer.slice(0, split).split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const body = JSON.parse(answer.slice(split + 4)) as RawAnswer['body'];
  expect(body.status).toBe('error');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
  return { statusLine: statusLine ?? '', headers, body };
}

describe('raw HTTP refusals answer in the spec body', () => {
  it('an HTTP/1.1 request without Host: 400 naming the header, never served (DNS-rebinding check intact)', async () => {
    const { port, key } = await setup();
    const noHost = parse(await raw(port, `GET /social/tweets/${DETAIL_ID} HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`));
    expect(noHost.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(noHost.body.message).toMatch(/Missing Host header/);
    // HTTP/1.0 and HTTP/0.9-style lines carry no Host either: refused the same way, not served.
    const old = parse(await raw(port, `GET /social/tweets/${DETAIL_ID} HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`));
    expect(old.statusLine).toMatch(/^HTTP\/1\.1 400 /);
    expect(old.body.message).toMatch(/Missing Host header/);
    // The same request with a loopback Host is served; with a foreign one it is still 403.
    const served = await raw(port, `GET /social/tweets/${DETAIL_ID} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    expect(served).toMatch(/^HTTP\/1\.1 200 /);
    const foreign = parse(await raw(port, `GET /social/tweets/${DETAIL_ID} HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`));
    expect(foreign.statusLine).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('two Host headers are a 400, and an absolute-form target naming a foreign host a 403, whatever the Host header says', async () => {
    const { port, key } = await setup();
    const twice = parse(await raw(port, `GET /social/tweets/${DETAIL_ID} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`));
    expect(twice.statusLine).toMatch(/^HTTP\/1\.1 400 /);
    expect(twice.body.message).toMatch(/More than one Host header/);
    const absolute = parse(await raw(port, `GET http://evil.example/social/tweets/${DETAIL_ID} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`));
    expect(absolute.statusLine).toMatch(/^HTTP\/1\.1 403 /);
    expect(absolute.body.message).toMatch(/Forbidden host/);
    // An absolute-form target naming a loopback host passes the check (and is routed as Fastify routes it).
    const loopback = await raw(port, `GET http://127.0.0.1:${port}/social/tweets/${DETAIL_ID} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    expect(loopback).not.toMatch(/^HTTP\/1\.1 403 /);
  });

  it('CONNECT: 405 with Allow, then the connection closes', async () => {
    const { port, server, key } = await setup();
    const answer = parse(await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(answer.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST, PUT');
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.body.message).toMatch(/CONNECT/);
    // Without a Host too, and the server keeps serving afterwards.
    expect(parse(await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\n\r\n')).statusLine).toMatch(/^HTTP\/1\.1 405 /);
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key })).status).toBe(200);
  });

  it('an Expect other than 100-continue: 417, and the request is not handled', async () => {
    const { port } = await setup();
    const answer = parse(await raw(port, 'POST /social/search/asyncJob HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: magic\r\nContent-Length: 2\r\n\r\n{}'));
    expect(answer.statusLine).toBe('HTTP/1.1 417 Expectation Failed');
    expect(answer.body.message).toMatch(/"magic"/);
  });

  it('a garbage request line, a bad header, an unknown HTTP version: 400 / 400 / 505', async () => {
    const { port } = await setup();
    const garbage = parse(await raw(port, 'G@RBAGE \x00\x01 nonsense\r\n\r\n'));
    expect(garbage.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(garbage.headers.get('connection')).toBe('close');
    const badHeader = parse(await raw(port, 'GET /social/account HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n'));
    expect(badHeader.statusLine).toBe('HTTP/1.1 400 Bad Request');
    for (const line of ['GET /social/account HTTP/1.2\r\nHost: 127.0.0.1\r\n\r\n', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n']) {
      const version = parse(await raw(port, line));
      expect(version.statusLine, line).toBe('HTTP/1.1 505 HTTP Version Not Supported');
      expect(version.body.message).toMatch(/HTTP version/);
    }
  });

  it('an oversized header or request line: 431 naming the limit', async () => {
    const { port } = await setup();
    const header = parse(await raw(port, `GET /social/account HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'b'.repeat(20_000)}\r\n\r\n`));
    expect(header.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(header.body.message).toMatch(/16384 bytes/);
    const line = parse(await raw(port, `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    expect(line.statusLine).toMatch(/^HTTP\/1\.1 431 /);
  });
});
