import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine/engine';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, charge, checkInvariants, grant } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { buildHttpApp } from '../../src/main/http/app';
import { chargeRequest } from '../../src/main/http/plugins/metering';
import { ARTICLE_ID, AUTHOR_ID, DETAIL_ID, SPACE_ID, writeApiCorpus } from '../fixtures/api-corpus';

const JSON_TYPE = 'application/json; charset=utf-8';

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const server = await startServer(engine);
  const alice = createKey(engine, 'alice');
  const get = (path: string, key = alice.key) => server.request(path, { key });
  return { engine, server, key: alice.key, userId: alice.user.id, get };
}

/** Moves the user's available balance to exactly n credits (through the ledger, never around it). */
function setAvailable(engine: Engine, userId: number, n: number): void {
  const { available } = balanceOf(engine.db, userId);
  const nowMs = engine.clock.nowMs();
  if (available > n) charge(engine.db, { transferId: `test:down:${nowMs}:${available}`, userId, amount: available - n, nowMs });
  if (available < n) grant(engine.db, { transferId: `test:up:${nowMs}:${available}`, userId, amount: n - available, nowMs });
  expect(balanceOf(engine.db, userId).available).toBe(n);
}

const timeline = `/social/user/${AUTHOR_ID}/tweets`;

describe('rate limit over HTTP: 120 requests in any minute per user', () => {
  it('500 concurrent requests: exactly 120 pass, the rest get 429 with an exact Retry-After', async () => {
    const { engine, get } = await setup();
    const replies = await Promise.all(Array.from({ length: 500 }, () => get('/social/account')));
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    expect(ok).toHaveLength(120);
    expect(limited).toHaveLength(380);
    // each admitted request saw its own place in the window: r = 119 .. 0, each once
    const left = ok.map((r) => Number(/;r=(\d+);/.exec(r.headers.get('ratelimit') ?? '')?.[1])).sort((a, b) => a - b);
    expect(left).toEqual(Array.from({ length: 120 }, (_, i) => i));
    for (const r of [...ok, ...limited]) expect(r.headers.get('ratelimit-policy')).toBe('"per-user";q=120;w=60');
    for (const r of limited) {
      expect(r.headers.get('retry-after')).toBe('60'); // the clock stands still: the window frees in 60 s
      expect(r.headers.get('retry-after-ms')).toBe('60000');
      expect(r.headers.get('ratelimit')).toBe('"per-user";r=0;t=60');
      expect(r.headers.get('content-type')).toBe(JSON_TYPE);
      expect(r.json()).toEqual({ status: 'error', message: 'Rate limit exceeded: at most 120 requests per minute. Retry in 60 seconds.' });
    }
    engine.clock.advance(59_999);
    const early = await get('/social/account');
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(early.headers.get('retry-after-ms')).toBe('1');
    engine.clock.advance(1);
    expect((await get('/social/account')).status).toBe(200);
  });

  it('retry-after-ms is the exact wait: a client that sleeps that long is admitted, one ms sooner is not', async () => {
    // The rule of Stainless-generated SDKs (SocialData's TypeScript SDK): wait retry-after-ms when
    // it is under 60,000, else Retry-After seconds when under 60, else back off 0.5-8 s.
    const { engine, get, userId } = await setup();
    engine.db.prepare('UPDATE api_users SET per_minute_limit = 5 WHERE id = ?').run(userId);
    for (const stepMs of [0, 1_234, 7_001, 250, 9_999]) {
      engine.clock.advance(stepMs);
      expect((await get('/social/account')).status).toBe(200);
    }
    engine.clock.advance(12_345);
    for (let round = 0; round < 6; round++) {
      const refused = await get('/social/account');
      expect(refused.status).toBe(429);
      const waitMs = Number(refused.headers.get('retry-after-ms'));
      expect(Number.isInteger(waitMs) && waitMs > 0 && waitMs < 60_000).toBe(true);
      expect(Number(refused.headers.get('retry-after'))).toBe(Math.ceil(waitMs / 1000));
      engine.clock.advance(waitMs - 1);
      expect((await get('/social/account')).status).toBe(429);
      engine.clock.advance(1);
      expect((await get('/social/account')).status).toBe(200);
    }
  });

  it('the limit is shared by all endpoints, and failed requests count, refused ones do not', async () => {
    const { engine, get, userId } = await setup();
    const paths = ['/social/account', `/social/tweets/${DETAIL_ID}`, timeline, `/social/spaces/show?id=${SPACE_ID}`, '/social/tweets/42', '/social/tweets/abc'];
    const before = balanceOf(engine.db, userId).available;
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => get(paths[i % paths.length]!)));
    const passed = replies.filter((r) => r.status !== 429);
    expect(passed).toHaveLength(120);
    expect(new Set(passed.map((r) => r.status))).toEqual(new Set([200, 404, 422]));
    // every passed request carries the headers, errors included
    for (const r of passed) expect(r.headers.get('ratelimit')).toMatch(/^"per-user";r=\d+;t=\d+$/);
    // only the successful ones were charged
    const spent = before - balanceOf(engine.db, userId).available;
    const expected = passed.reduce((sum, r) => {
      if (r.status !== 200) return sum;
      const body = r.json() as { tweets?: unknown[]; status?: string };
      if (body.status === 'success') return sum; // the account endpoint is free
      return sum + Math.max(1, body.tweets?.length ?? 1);
    }, 0);
    expect(spent).toBe(expected);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('users are limited apart, and a new limit applies at once', async () => {
    const { engine, server, get, userId } = await setup();
    const bob = createKey(engine, 'bob');
    engine.db.prepare('UPDATE api_users SET per_minute_limit = 3 WHERE id = ?').run(userId);
    for (let i = 0; i < 3; i++) expect((await get('/social/account')).status).toBe(200);
    const refused = await get('/social/account');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-policy')).toBe('"per-user";q=3;w=60');
    expect(refused.json()).toMatchObject({ message: 'Rate limit exceeded: at most 3 requests per minute. Retry in 60 seconds.' });
    expect((await server.request('/social/account', { key: bob.key })).status).toBe(200);
    engine.db.prepare('UPDATE api_users SET per_minute_limit = 4 WHERE id = ?').run(userId);
    expect((await get('/social/account')).status).toBe(200);
  });

  it('a request without a valid key is 401 and costs nothing', async () => {
    const { engine, server, userId } = await setup();
    const before = balanceOf(engine.db, userId).available;
    const r = await server.request(`/social/tweets/${DETAIL_ID}`);
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toBe(JSON_TYPE);
    expect(balanceOf(engine.db, userId).available).toBe(before);
  });
});

describe('credits over HTTP: prices and 402 (section 7)', () => {
  it('charges 1 per item returned, at least 1; failures and the account endpoint are free', async () => {
    const { engine, get, userId } = await setup();
    const spent = async (path: string, status: number) => {
      const before = balanceOf(engine.db, userId).available;
      const r = await get(path);
      expect(r.status, path).toBe(status);
      return before - balanceOf(engine.db, userId).available;
    };
    expect(await spent(`/social/tweets/${DETAIL_ID}`, 200)).toBe(1);
    expect(await spent(`/social/statuses/show?id=${DETAIL_ID}`, 200)).toBe(1);
    expect(await spent(`/social/article/${ARTICLE_ID}`, 200)).toBe(1);
    expect(await spent(`/social/spaces/show?id=${SPACE_ID}`, 200)).toBe(1);
    const page1 = await get(timeline);
    const page1Items = (page1.json() as { tweets: unknown[] }).tweets.length;
    expect(page1Items).toBeGreaterThan(0);
    const cursor = (page1.json() as { next_cursor: string }).next_cursor;
    expect(await spent(`${timeline}?cursor=${encodeURIComponent(cursor)}`, 200)).toBeGreaterThanOrEqual(1);
    expect(await spent('/social/tweets/42', 404)).toBe(0);
    expect(await spent('/social/tweets/abc', 422)).toBe(0);
    expect(await spent('/social/account', 200)).toBe(0);
    expect(await spent('/social/nowhere', 404)).toBe(0);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it.each([
    ['a timeline page (can cost 20) with 19 credits', timeline, 19],
    ['tweets and replies (can cost 20) with 19 credits', `/social/user/${AUTHOR_ID}/tweets-and-replies`, 19],
    ['tweet details with 0 credits', `/social/tweets/${DETAIL_ID}`, 0],
    ['tweet details, query form, with 0 credits', `/social/statuses/show?id=${DETAIL_ID}`, 0],
    ['article details with 0 credits', `/social/article/${ARTICLE_ID}`, 0],
    ['space details with 0 credits', `/social/spaces/show?id=${SPACE_ID}`, 0],
  ])('402 before any work: %s', async (_name, path, credits) => {
    const { engine, get, userId } = await setup();
    setAvailable(engine, userId, credits);
    const r = await get(path);
    expect(r.status).toBe(402);
    expect(r.headers.get('content-type')).toBe(JSON_TYPE);
    expect(r.headers.get('ratelimit')).toMatch(/^"per-user";r=119;t=60$/);
    const body = r.json() as { status: string; message: string };
    expect(body.status).toBe('error');
    expect(body.message).toMatch(/^Not enough credits: this request can cost up to \d+ credits? and \d+ (is|are) available\./);
    expect(balanceOf(engine.db, userId).available).toBe(credits);
    // one credit more than the largest cost lets it through
    setAvailable(engine, userId, credits + 1);
    expect((await get(path)).status).toBe(200);
  });

  it('the account endpoint answers at zero credits with balance, holds and limit', async () => {
    const { engine, get, userId } = await setup();
    setAvailable(engine, userId, 0);
    const r = await get('/social/account');
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({
      status: 'success',
      user: { id: userId, name: 'alice' },
      credits: { available: 0, held: 0, balance: 0, granted_total: 100_000, spent_total: 100_000 },
      holds: [],
      rate_limit: { limit: 120, window_seconds: 60, remaining: 119, reset_seconds: 60 },
    });
  });

  it('concurrent requests never overdraw: 45 credits serve exactly two 20-credit pages at once', async () => {
    const { engine, get, userId } = await setup();
    setAvailable(engine, userId, 45);
    const replies = await Promise.all(Array.from({ length: 20 }, () => get(timeline)));
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 402);
    expect(ok.length + refused.length).toBe(20);
    const charged = ok.reduce((s, r) => s + (r.json() as { tweets: unknown[] }).tweets.length, 0);
    expect(ok).toHaveLength(2);
    expect(charged).toBe(40);
    expect(balanceOf(engine.db, userId).available).toBe(5);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it.each([
    ['a search job holds max_count', '/social/search/asyncJob?query=research&max_count=50', 50],
    ['a search job holds the default max_count, 20', '/social/search/asyncJob?query=research', 20],
    ['a reply job without max_count holds the post\'s reply_count (2)', `/social/tweets/${DETAIL_ID}/comments/asyncJob`, 2],
    ['a reply job with max_count holds max_count', `/social/tweets/${DETAIL_ID}/comments/asyncJob?max_count=30`, 30],
  ])('402 at job creation when %s (plus 1 for the request) cannot be held', async (_name, path, held) => {
    const { engine, server, key, userId } = await setup();
    const post = () => server.request(path, { method: 'POST', key });
    setAvailable(engine, userId, held);
    const refused = await post();
    expect(refused.status).toBe(402);
    expect(refused.headers.get('content-type')).toBe(JSON_TYPE);
    expect((refused.json() as { message: string }).message).toMatch(/^Not enough credits/);
    expect(balanceOf(engine.db, userId)).toMatchObject({ available: held, pending: 0 });
    expect(engine.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(0);
    setAvailable(engine, userId, held + 1);
    const ok = await post();
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'success' });
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('a successful spec route that never charges still costs 1; charging twice costs once; a thrown route is free', async () => {
    const engine = testEngine();
    const { key, user } = createKey(engine, 'carol');
    const app = await buildHttpApp(engine);
    app.get('/social/x-uncharged', { config: { spec: true } }, async () => ({ ok: true }));
    app.get('/social/x-twice', { config: { spec: true, maxCost: 5 } }, async (request) => {
      chargeRequest(request, 5);
      chargeRequest(request, 5);
      return { ok: true };
    });
    app.get('/social/x-throws', { config: { spec: true, maxCost: 5 } }, async () => {
      throw new Error('boom');
    });
    const headers = { authorization: `Bearer ${key}`, host: '127.0.0.1' };
    const spent = async (url: string, status: number) => {
      const before = balanceOf(engine.db, user.id).available;
      const r = await app.inject({ method: 'GET', url, headers });
      expect(r.statusCode, url).toBe(status);
      expect(r.headers.ratelimit, url).toMatch(/^"per-user";r=\d+;t=\d+$/);
      return before - balanceOf(engine.db, user.id).available;
    };
    expect(await spent('/social/x-uncharged', 200)).toBe(1);
    expect(await spent('/social/x-twice', 200)).toBe(5);
    expect(await spent('/social/x-throws', 500)).toBe(0);
    // reservations are released however a request ends: at exactly 5 credits, after failed
    // 5-credit requests, a 5-credit request still passes
    setAvailable(engine, user.id, 5);
    for (let i = 0; i < 3; i++) expect(await spent('/social/x-throws', 500)).toBe(0);
    expect(await spent('/social/x-twice', 200)).toBe(5);
    expect(await spent('/social/x-twice', 402)).toBe(0);
    await app.close();
  });
});
