import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/main/engine/clock';
import { parseJsonExact } from '../../src/main/engine/corpus/write/json';
import { revokeKey } from '../../src/main/engine/keys';
import {
  BACKOFF_BASE_MS, envKeySource, getUpstreamConfig, MAX_ATTEMPTS, READ_MAX_RATE_WAIT_MS, setUpstreamConfig, UpstreamError, UpstreamLimiter,
  upstreamClient, type UpstreamClientOptions, type UpstreamError as UpstreamErrorType, UPSTREAM_WINDOW_MS,
} from '../../src/main/engine/upstream';
import { testEngine } from '../helpers/engine';
import { upstreamSkein } from '../helpers/upstream-skein';
import { AUTHOR_ID, DETAIL_ID } from '../fixtures/api-corpus';

// The upstream client against real upstreams on loopback: a second real Skein (profile 'spec' and,
// through its /twitter aliases, profile 'socialdata'), and for faults a tiny node:http server
// standing in for a broken third party. Waits go through an injected sleep that advances the
// manual clocks, so nothing here depends on timing; only the timeout test waits for real (300 ms).

/** Skein B, ours: its upstream set to `url`; `sleep` advances B's clock and the others given. */
function ours(url: string, profile: 'spec' | 'socialdata', key: string, options: { perMinute?: number; clocks?: ManualClock[] } & Partial<UpstreamClientOptions> = {}) {
  const engine = testEngine();
  setUpstreamConfig(engine.db, { url, profile, perMinute: options.perMinute ?? 100_000 }, engine.clock.nowMs());
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    engine.clock.advance(ms);
    for (const c of options.clocks ?? []) c.advance(ms);
  };
  const client = () => upstreamClient(engine, { keySource: envKeySource({ SKEIN_UPSTREAM_KEY: key }), sleep, ...options });
  return { engine, sleeps, client };
}

async function failure(p: Promise<unknown>): Promise<UpstreamErrorType> {
  try {
    await p;
  } catch (err) {
    if (err instanceof UpstreamError) return err;
    throw err;
  }
  throw new Error('expected an UpstreamError');
}

describe('upstream client against a second Skein', () => {
  it.each([
    ['spec', '/social'],
    ['socialdata', '/twitter'],
  ] as const)('profile %s: a timeline page and tweet details come back as a direct request gives them', async (profile, prefix) => {
    const a = await upstreamSkein();
    const b = ours(a.server.url, profile, a.key);
    const client = b.client();
    const pairs: [string, string][] = [
      [client.paths.userTweets(AUTHOR_ID), `${prefix}/user/${AUTHOR_ID}/tweets`],
      [client.paths.tweet(DETAIL_ID), `${prefix}/tweets/${DETAIL_ID}`],
      [client.paths.search('mentions'), `${prefix}/search?query=mentions`],
    ];
    for (const [viaClient, direct] of pairs) {
      expect(viaClient).toBe(direct);
      const got = await client.get(viaClient);
      const res = await a.server.request(direct, { key: a.key });
      expect(res.status).toBe(200);
      expect(got).toEqual(parseJsonExact(res.text)); // ids of 16+ digits exact, as strings
    }
    // the next page through the cursor the first page gave
    const first = (await client.get(client.paths.userTweets(AUTHOR_ID))) as { next_cursor: string; tweets: unknown[] };
    expect(first.next_cursor).toBeTruthy();
    const second = await client.get(client.paths.userTweets(AUTHOR_ID, first.next_cursor));
    expect(second).toEqual(parseJsonExact((await a.server.request(`${prefix}/user/${AUTHOR_ID}/tweets?cursor=${encodeURIComponent(first.next_cursor)}`, { key: a.key })).text));
    expect(b.sleeps).toEqual([]);
    expect(getUpstreamConfig(b.engine.db)!.keyStatus).toBe('valid');
  });

  it('reads the balance in each profile\'s unit: USD from /user/balance, credits from /social/account', async () => {
    const a = await upstreamSkein();
    const spec = await ours(a.server.url, 'spec', a.key).client().balance();
    const account = (await a.server.request('/social/account', { key: a.key })).json() as { credits: { available: number } };
    expect(spec).toEqual({ amount: account.credits.available, unit: 'credits' });
    const usd = await ours(a.server.url, 'socialdata', a.key).client().balance();
    const balance = (await a.server.request('/user/balance', { key: a.key })).json() as { balance: number };
    expect(usd).toEqual({ amount: balance.balance, unit: 'usd' });
  });

  it("waits out the upstream's real 429 for as long as it says, for a job; a read says how long instead", async () => {
    const a = await upstreamSkein();
    a.engine.db.prepare('UPDATE api_users SET per_minute_limit = 3 WHERE id = ?').run(a.userId);
    const job = ours(a.server.url, 'spec', a.key, { clocks: [a.engine.clock], maxRateWaitMs: Infinity });
    const client = job.client();
    const direct = parseJsonExact((await a.server.request(`/social/tweets/${DETAIL_ID}`, { key: a.key })).text);
    // A's window of 3 holds the direct request; two more fill it and the next is refused with a 429.
    for (let i = 0; i < 4; i++) expect(await client.get(client.paths.tweet(DETAIL_ID))).toEqual(direct);
    // That 429's retry-after-ms said: until the first request leaves the window, a full minute.
    expect(job.sleeps).toEqual([UPSTREAM_WINDOW_MS]);

    // A read's client waits READ_MAX_RATE_WAIT_MS at most in all: A's window is full again (the
    // job's last two requests and one direct), and a minute is longer, so it gives up at once, saying how long.
    expect((await a.server.request(`/social/tweets/${DETAIL_ID}`, { key: a.key })).status).toBe(200);
    const read = ours(a.server.url, 'spec', a.key, { clocks: [a.engine.clock] });
    const err = await failure(read.client().get(client.paths.tweet(DETAIL_ID)));
    expect([err.kind, err.status]).toEqual(['rate_limited', 429]);
    expect(err.retryAfterMs).toBeGreaterThan(READ_MAX_RATE_WAIT_MS);
    expect(err.retryAfterMs).toBeLessThanOrEqual(UPSTREAM_WINDOW_MS);
    expect(err.message).toMatch(/^The upstream at http:\/\/127\.0\.0\.1:\d+ is rate limiting \(HTTP 429\) for the next \d+ s: Rate limit exceeded/);
    expect(read.sleeps).toEqual([]);
    expect(read.engine.db.prepare('SELECT count(*) FROM upstream_admissions WHERE reserved_items > 0').pluck().get()).toBe(0);
    // Once that wait has passed, the read is answered.
    read.engine.clock.advance(err.retryAfterMs!);
    a.engine.clock.advance(err.retryAfterMs!);
    expect(await read.client().get(client.paths.tweet(DETAIL_ID))).toEqual(direct);
  });

  it('a revoked upstream key is a key-invalid error, and the config says the key is invalid', async () => {
    const a = await upstreamSkein();
    const b = ours(a.server.url, 'socialdata', a.key);
    await b.client().balance();
    expect(getUpstreamConfig(b.engine.db)!.keyStatus).toBe('valid');
    revokeKey(a.engine, a.key);
    for (const call of [() => b.client().balance(), () => b.client().get(`/twitter/tweets/${DETAIL_ID}`)]) {
      const err = await failure(call());
      expect(err.kind).toBe('key_invalid');
      expect(err.status).toBe(401);
      expect(err.message).not.toContain(a.key);
    }
    const config = getUpstreamConfig(b.engine.db)!;
    expect(config.keyStatus).toBe('invalid');
    expect(config.keyMessage).toContain('401');
    expect(config.keyMessage).not.toContain(a.key);
    expect(b.sleeps).toEqual([]); // a refused key is not retried
  });
});

/** A third party's server misbehaving as `handle` says; counts the requests it got. */
async function faultServer(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const hits = { n: 0 };
  const server = createServer((req, res) => {
    hits.n++;
    handle(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  faults.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}
const faults: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  while (faults.length) {
    const s = faults.pop()!;
    s.closeAllConnections();
    await new Promise((done) => s.close(done));
  }
});

const KEY = 'sk_test_upstream_key_0123456789abcdef';
const BACKOFFS = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => BACKOFF_BASE_MS * 2 ** i);

describe('upstream client against a failing upstream', () => {
  it('retries a 500 a bounded number of times with backoff, then says the upstream is unavailable', async () => {
    const f = await faultServer((_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"status":"error","message":"database on fire"}'));
    const b = ours(f.url, 'socialdata', KEY);
    const err = await failure(b.client().get('/twitter/tweets/1'));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('database on fire');
    expect(f.hits.n).toBe(MAX_ATTEMPTS);
    expect(b.sleeps).toEqual(BACKOFFS);
  });

  it('a 500 that clears up before the tries run out is survived', async () => {
    const f = await faultServer((_req, res) => (f.hits.n < 3 ? res.writeHead(503).end('busy') : res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","balance":1.5}')));
    const b = ours(f.url, 'socialdata', KEY);
    expect(await b.client().balance()).toEqual({ amount: 1.5, unit: 'usd' });
    expect(f.hits.n).toBe(3);
  });

  it('a refused connection is retried the same bounded way', async () => {
    const f = await faultServer(() => undefined);
    const closed = faults.pop()!;
    await new Promise((done) => closed.close(done));
    const b = ours(f.url, 'spec', KEY);
    const err = await failure(b.client().get('/social/tweets/1'));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('ECONNREFUSED');
    expect(b.sleeps).toEqual(BACKOFFS);
  });

  it.each([
    ['never answers', (_req: IncomingMessage, _res: ServerResponse) => undefined],
    ['starts an answer and never finishes it', (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'application/json' }).write('{"status":"succ')],
  ])('an upstream that %s is cut by the whole-request timeout, then retried and given up', async (_name, handle) => {
    const f = await faultServer(handle);
    const b = ours(f.url, 'spec', KEY, { timeoutMs: 300 });
    const err = await failure(b.client().get('/social/tweets/1'));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('within 300 ms');
    expect(f.hits.n).toBe(MAX_ATTEMPTS);
  });

  it('402 is out-of-balance with the upstream\'s message; an answer over the size cap is refused unread', async () => {
    const poor = await faultServer((_req, res) => res.writeHead(402, { 'content-type': 'application/json' }).end('{"status":"error","message":"Insufficient balance: top up"}'));
    const err = await failure(ours(poor.url, 'socialdata', KEY).client().balance());
    expect([err.kind, err.status]).toEqual(['out_of_balance', 402]);
    expect(err.message).toContain('Insufficient balance: top up');
    expect(poor.hits.n).toBe(1);

    const huge = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"status":"success","tweets":["${'x'.repeat(4096)}`);
      res.end('"]}');
    });
    const tooBig = await failure(ours(huge.url, 'spec', KEY, { maxBodyBytes: 1024 }).client().get('/social/search?query=x'));
    expect(tooBig.kind).toBe('bad_response');
    expect(tooBig.message).toContain('larger than 1024 bytes');
  });

  it('never repeats the key in an error, even when the upstream echoes it', async () => {
    const f = await faultServer((req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', message: `bad key: ${req.headers.authorization}` })));
    const b = ours(f.url, 'socialdata', KEY);
    const err = await failure(b.client().balance());
    expect(err.kind).toBe('key_invalid');
    expect(err.message).toContain('bad key: Bearer sk_…cdef');
    expect(err.message).not.toContain(KEY);
    expect(getUpstreamConfig(b.engine.db)!.keyMessage).not.toContain(KEY);
  });
});

describe('the shared upstream limiter', () => {
  it.each([1, 2, 5, 120])('never lets more than %i requests a minute through in any 60 s window', async (perMinute) => {
    const clock = new ManualClock(0);
    const limiter = new UpstreamLimiter(testEngine().db, clock, () => perMinute);
    const sleep = async (ms: number) => clock.advance(ms);
    const admitted: number[] = [];
    for (let i = 0; i < perMinute * 3 + 1; i++) {
      // some callers arrive a little later: the window is about admissions, not calls
      if (i % 4 === 3) clock.advance(7_000);
      const arrived = clock.nowMs();
      await limiter.acquire(sleep);
      admitted.push(clock.nowMs());
      // and it waits no more than it must: at once, or exactly when the oldest admission leaves
      const earliest = i < perMinute ? arrived : Math.max(arrived, admitted[i - perMinute]! + UPSTREAM_WINDOW_MS);
      expect(admitted[i]).toBe(earliest);
    }
    for (let i = 0; i + perMinute < admitted.length; i++) expect(admitted[i + perMinute]! - admitted[i]!).toBeGreaterThanOrEqual(UPSTREAM_WINDOW_MS);
  });

  it('frees the budget held by a caller that never booked its answer once its admission leaves the window', async () => {
    const clock = new ManualClock(0);
    const limiter = new UpstreamLimiter(testEngine().db, clock, () => 100);
    const reserve = { items: 20, budgetLeft: () => 30, refuse: (left: number) => new Error(`refused, ${left} left`) };
    limiter.tryAdmit(reserve); // its caller dies: never settled
    expect(() => limiter.tryAdmit(reserve)).toThrow('refused, 10 left');
    clock.advance(UPSTREAM_WINDOW_MS);
    expect(limiter.tryAdmit(reserve)).toMatchObject({ admitted: true });
  });

  it('is shared by every client of the engine and follows the configured per_minute', async () => {
    const a = await upstreamSkein();
    const b = ours(a.server.url, 'spec', a.key, { perMinute: 2, clocks: [a.engine.clock], maxRateWaitMs: Infinity });
    // two clients (two callers): together they get 2 requests a minute, not 2 each
    await b.client().get(b.client().paths.tweet(DETAIL_ID));
    await b.client().get(b.client().paths.tweet(DETAIL_ID));
    expect(b.sleeps).toEqual([]);
    // A read's client would wait a minute: longer than a read waits, so it says so and sends nothing.
    const read = upstreamClient(b.engine, { keySource: envKeySource({ SKEIN_UPSTREAM_KEY: a.key }) });
    const err = await failure(read.get(read.paths.tweet(DETAIL_ID)));
    expect([err.kind, err.retryAfterMs]).toEqual(['rate_limited', UPSTREAM_WINDOW_MS]);
    expect(err.message).toBe("Skein's limit for the upstream (2 requests a minute, 'skein upstream set --per-minute') is used up for the next 60 s.");
    // A job's client waits it out.
    await b.client().get(b.client().paths.tweet(DETAIL_ID));
    expect(b.sleeps).toEqual([UPSTREAM_WINDOW_MS]);
  });
});
