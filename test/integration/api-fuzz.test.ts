import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/main/engine/serialize/json';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { exchange, type RawResponse } from '../helpers/raw-http';
import { apiKey, ARTICLE_ID, AUTHOR_ID, DETAIL_ID, SPACE_ID, writeApiCorpus } from '../fixtures/api-corpus';

// Random and malformed requests against the real server over raw sockets (so any bytes can be
// sent): never a 500, never a crash, every failure in the spec's error shape. Seeded, so a run is
// reproducible; FUZZ_SEED=n FUZZ_RUNS=n explore further.
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

const segment = fc.oneof(
  fc.constantFrom('social', 'user', 'tweets', 'tweets-and-replies', 'statuses', 'show', 'article', 'spaces', 'jobs', 'comments', 'asyncJob', 'search', '', '..', '.', '%00', '%2F', '%ff', '%', '%zz', '~', '*', ';', 'app'),
  fc.constantFrom(AUTHOR_ID, DETAIL_ID, ARTICLE_ID, SPACE_ID, '0', '-1', '1e5', '0x10', '9223372036854775808', '99999999999999999999999', ' 1', '１２３'),
  fc.string({ maxLength: 20 }),
  fc.stringMatching(/^[0-9]{1,25}$/),
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => encodeURIComponent(s)),
);

const queryValue = fc.oneof(
  fc.constantFrom(DETAIL_ID, SPACE_ID, '', '%', '%00', 'null', 'undefined', '[]', '{}', '1.0', AUTHOR_ID),
  fc.string({ maxLength: 60 }).map((s) => encodeURIComponent(s)),
  fc.base64String({ maxLength: 60 }),
);

const query = fc.array(fc.tuple(fc.constantFrom('id', 'cursor', 'id[]', 'cursor[a]', 'x', '', '__proto__', 'constructor'), queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''));

const knownPath = fc.constantFrom(
  `/social/user/${AUTHOR_ID}/tweets`, `/social/user/${AUTHOR_ID}/tweets-and-replies`, '/social/statuses/show', `/social/tweets/${DETAIL_ID}`,
  `/social/article/${ARTICLE_ID}`, '/social/spaces/show', '/spaces/show',
);

const path = fc.oneof(
  fc.tuple(knownPath, query).map(([p, q]) => p + q),
  fc.tuple(fc.array(segment, { minLength: 1, maxLength: 6 }), query).map(([segs, q]) => '/' + segs.join('/') + q),
  fc.string({ unit: 'binary', maxLength: 80 }),
);

const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'BREW', 'get');

function headerSets(key: string) {
  const auth = fc.oneof(
    fc.constant(`Bearer ${key}`),
    fc.constant(`bearer  ${key}`),
    fc.constant(`Bearer ${key}x`),
    fc.constant(''),
    fc.string({ maxLength: 80 }),
    fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
  );
  const optional = fc.record(
    {
      authorization: auth,
      accept: fc.constantFrom('application/json', '*/*', 'text/html', ''),
      origin: fc.constantFrom('http://127.0.0.1', 'https://evil.example', 'null', ''),
      'content-type': fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '%%%'),
      'sec-fetch-site': fc.constantFrom('cross-site', 'same-origin', 'none'),
      'x-junk': fc.string({ maxLength: 40 }),
    },
    { requiredKeys: [] },
  );
  return fc.tuple(optional, fc.constantFrom('127.0.0.1', 'localhost', 'evil.example', ''));
}

// Header lines Node's parser may refuse or merge: duplicates, no colon, folding, control
// characters, a value over the 16 KiB header limit, a Content-Length that lies.
const rawHeaderLines = fc.array(
  fc.oneof(
    fc.constantFrom('Authorization: Bearer a', 'Authorization: Bearer b', 'Host: evil.example', 'no-colon-here', ' folded continuation',
      'X-Ctl: a\u0001b', 'Content-Length: 5', 'Content-Length: -1', 'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip, chunked',
      'Origin: http://127.0.0.1', 'Expect: 100-continue', `X-Huge: ${'h'.repeat(17 * 1024)}`),
    fc.tuple(fc.stringMatching(/^[A-Za-z-]{1,20}$/), fc.string({ maxLength: 40 })).map(([k, v]) => `${k}: ${v}`),
  ),
  { maxLength: 3 },
);

const body = fc.oneof(
  fc.constant(''),
  fc.json(),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a).toString('latin1')),
  fc.constant('{"a":'),
);

function checkResponse(res: RawResponse | null | 'timeout', what: string): void {
  expect(res, what).not.toBe('timeout');
  if (res === 'timeout') return;
  // A request Node's parser rejects may legitimately be answered by closing the socket (e.g.
  // bytes after a parse error); when an answer comes, it is checked.
  if (!res) return;
  expect(res.status, what).not.toBe(500);
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 400 && res.body !== '') {
    expect(res.headers['content-type'], what).toBe('application/json; charset=utf-8');
    const parsed = JSON.parse(res.body) as Record<string, unknown>;
    expect(Object.keys(parsed), what).toEqual(['status', 'message']);
    expect(parsed.status).toBe('error');
    expect(typeof parsed.message).toBe('string');
    expect(parsed.message as string, what).not.toMatch(/\n\s+at /);
  }
  if (res.status === 200 && res.body !== '') {
    expect(res.headers['content-type'], what).toBe('application/json; charset=utf-8');
    expect(() => parseJsonExact(res.body), what).not.toThrow();
  }
  expect(res.headers['access-control-allow-origin'], what).toBeUndefined();
}

describe('the HTTP surface under random and malformed input', () => {
  it('never answers 500, never crashes, always the spec error shape', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const key = apiKey(engine);
    const port = Number(new URL(server.url).port);

    await fc.assert(
      fc.asyncProperty(method, path, headerSets(key), rawHeaderLines, body, async (m, p, [headers, host], extra, b) => {
        const lines = [`${m} ${p} HTTP/1.1`, ...(host ? [`Host: ${host}`] : [])];
        for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
        lines.push(...extra);
        if (b && m !== 'GET' && m !== 'HEAD') lines.push(`Content-Length: ${Buffer.byteLength(b, 'latin1')}`);
        lines.push('Connection: close');
        const request = Buffer.from(lines.join('\r\n') + '\r\n\r\n' + (m !== 'GET' && m !== 'HEAD' ? b : ''), 'latin1');
        checkResponse(await exchange(port, request), JSON.stringify({ m, p, headers, host, extra: extra.map((l) => l.slice(0, 60)) }));
      }),
      { numRuns: RUNS, seed: SEED },
    );

    // Still serving, and still right.
    const ok = await server.request(`/social/tweets/${DETAIL_ID}`, { key });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain(`"id":${DETAIL_ID}`);
  });

  it('mutated cursors are refused with 422 naming cursor, never accepted for another position', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const key = apiKey(engine);
    const first = (await server.request(`/social/user/${AUTHOR_ID}/tweets-and-replies`, { key })).json() as { next_cursor: string };
    const cursor = first.next_cursor;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

    await fc.assert(
      fc.asyncProperty(fc.nat({ max: cursor.length - 1 }), fc.nat({ max: alphabet.length - 1 }), async (i, j) => {
        const c = cursor.slice(0, i) + alphabet[j] + cursor.slice(i + 1);
        const res = await server.request(`/social/user/${AUTHOR_ID}/tweets-and-replies?cursor=${encodeURIComponent(c)}`, { key });
        if (c === cursor) expect(res.status).toBe(200);
        else {
          expect(res.status, c).toBe(422);
          expect((res.json() as { message: string }).message).toMatch(/'cursor'/);
        }
      }),
      { numRuns: 200, seed: SEED },
    );
  });
});
