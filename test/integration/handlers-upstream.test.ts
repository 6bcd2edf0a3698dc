import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers, type AppHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import type { UpstreamKeyStore } from '../../src/main/engine/handlers/upstream';
import { revokeKey } from '../../src/main/engine/keys';
import { DEFAULT_PRICE_PER_ITEM_USD, envKeySource, keychainKeySource, maskKey, sessionKeySource, UPSTREAM_KEY_ENV } from '../../src/main/engine/upstream';
import { AUTHOR_ID, DETAIL_ID, OTHER_POST_ID, REPLY_ID } from '../fixtures/api-corpus';
import { testEngine } from '../helpers/engine';
import { upstreamSkein } from '../helpers/upstream-skein';

// Settings > Sources through the handler layer (the contract the renderer calls over IPC or HTTP):
// Skein B, the app's engine, against Skein A, a second real Skein on loopback serving as its
// upstream (profile 'spec'). No keychain answers in B (as on a server or in CI), so a typed key is
// kept for the session; one test gives B an in-memory store standing in for the OS keychain.

const NO_KEYCHAIN = { available: false, message: 'No OS keychain is available (test).' };
const opened: AppHandlers[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

function appOf(options: { upstreamKeyStore?: UpstreamKeyStore } = {}) {
  const engine = testEngine({ upstreamKeys: sessionKeySource(envKeySource({})) });
  const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null, keychain: () => NO_KEYCHAIN, ...options });
  opened.push(app);
  return { engine, app, h: app.handlers };
}

const spentLines = (engine: ReturnType<typeof testEngine>) => engine.db.prepare('SELECT count(*) FROM upstream_spend').pluck().get() as number;

describe('handlers: the upstream source in Settings', () => {
  it('without a source: no config, no key, a typed key would be kept for this session, and says why', async () => {
    const { h } = appOf();
    const state = await h['upstream.get']();
    expect(state.config).toBeNull();
    expect(state.key).toMatchObject({ present: false, masked: null, source: 'none', status: 'unknown', store: 'session' });
    expect(state.key.store_message).toBe(
      'No OS keychain answers here, so the key is kept in memory until Skein stops; set SKEIN_UPSTREAM_KEY to avoid typing it.',
    );
    expect(state.spend.all).toEqual({ items: 0, requests: 0, usd: 0 });
    expect(state.budget).toBeNull();
  });

  it('refuses each malformed setting with an invalid error naming the field, storing nothing', async () => {
    const { app, h } = appOf();
    const good = { url: 'http://127.0.0.1:9', profile: 'spec', mode: 'cache-first' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, url: 'ftp://example.org' }, "'url'"],
      [{ ...good, url: undefined }, "'url'"],
      [{ ...good, profile: 'twitter' }, "'profile'"],
      [{ ...good, mode: 'sometimes' }, "'mode'"],
      [{ ...good, per_minute: 0 }, "'per_minute'"],
      [{ ...good, per_minute: 1.5 }, "'per_minute'"],
      [{ ...good, budget_items: -1 }, "'budget_items'"],
      [{ ...good, budget_items: 'lots' }, "'budget_items'"],
      [{ ...good, fresh_ms: { post: -5 } }, "'fresh_ms.post'"],
      [{ ...good, fresh_ms: { tweet: 1000 } }, "'fresh_ms.tweet'"],
      [{ ...good, fresh_ms: 'daily' }, "'fresh_ms'"],
      [{ ...good, confirm_over_items: -1 }, "'confirm_over_items'"],
      [{ ...good, key: 'sk_typed_into_the_wrong_field' }, "'key'"],
      [{ ...good, budget: 5 }, "'budget'"],
    ];
    for (const [args, field] of cases) {
      const r = await dispatch(app.handlers, 'upstream.set', args);
      expect(r, JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining(field) } });
      expect(JSON.stringify(r)).not.toContain('sk_typed_into_the_wrong_field');
    }
    expect((await h['upstream.get']()).config).toBeNull();
  });

  it('sets a source, keeps a typed key for the session (masked), tests it: the balance beside our budget', async () => {
    const a = await upstreamSkein();
    const { h } = appOf();
    const set = await h['upstream.set']({
      url: `${a.server.url}/`, profile: 'spec', mode: 'cache-first', per_minute: 60, budget_items: 5_000,
      fresh_ms: { page: 60_000, post: 3_600_000 }, confirm_over_items: 250,
    });
    expect(set.config).toMatchObject({
      url: a.server.url, profile: 'spec', mode: 'cache-first', per_minute: 60, budget_items: 5_000, confirm_over_items: 250,
      fresh_ms: { page: 60_000, post: 3_600_000, user: 86_400_000, article: 604_800_000, space: 3_600_000 },
      price_per_item_usd: DEFAULT_PRICE_PER_ITEM_USD,
    });
    // 5,000 items at $0.0002 are $1
    expect(set.budget).toMatchObject({ items: 5_000, usd: 1, spent_items: 0, left_items: 5_000, left_usd: 1 });

    const noKey = await h['upstream.test']();
    expect(noKey).toMatchObject({ ok: false, kind: 'not_configured', message: expect.stringContaining('No upstream API key') });

    const withKey = await h['upstream.setKey']({ key: `  ${a.key}\n` });
    expect(withKey.key).toMatchObject({ present: true, masked: maskKey(a.key), source: 'session', status: 'unknown' });
    expect(JSON.stringify(withKey)).not.toContain(a.key);

    const tested = await h['upstream.test']();
    const account = (await a.server.request('/social/account', { key: a.key })).json() as { credits: { available: number } };
    expect(tested).toMatchObject({ ok: true, balance: { amount: account.credits.available, unit: 'credits' }, balance_items: account.credits.available });
    if (!tested.ok) throw new Error('unreachable');
    expect(tested.balance_usd).toBeCloseTo(account.credits.available * DEFAULT_PRICE_PER_ITEM_USD, 6);
    expect(tested.state.key.status).toBe('valid');
    expect(JSON.stringify(tested)).not.toContain(a.key);
    expect((await h['upstream.get']()).key.status).toBe('valid');
  });

  it('a revoked key: the test says the upstream refused it (HTTP 401), and the key status is invalid with that reason', async () => {
    const a = await upstreamSkein();
    const { h } = appOf();
    await h['upstream.set']({ url: a.server.url, profile: 'spec' });
    await h['upstream.setKey']({ key: a.key });
    expect((await h['upstream.test']()).ok).toBe(true);
    revokeKey(a.engine, a.key);
    const tested = await h['upstream.test']();
    expect(tested).toMatchObject({ ok: false, kind: 'key_invalid', message: expect.stringContaining('The upstream refused the API key (HTTP 401)') });
    const state = await h['upstream.get']();
    expect(state.key).toMatchObject({ present: true, status: 'invalid', message: expect.stringContaining('The upstream refused the API key (HTTP 401)') });
    expect(JSON.stringify(state)).not.toContain(a.key);
    // a new key starts over: its status is unknown until it is used
    expect((await h['upstream.setKey']({ key: 'sk_another_key_0001' })).key).toMatchObject({ status: 'unknown', message: null });
  });

  it("the app's timeline reads through the upstream fill the local corpus; a second read costs nothing; offline reads stay local", async () => {
    const a = await upstreamSkein();
    const { engine, h } = appOf();
    const posts = () => engine.db.prepare('SELECT count(*) FROM posts').pluck().get() as number;
    expect(posts()).toBe(0);
    await expect(h['users.lookup']({ user: AUTHOR_ID })).rejects.toMatchObject({ code: 'not_found' }); // offline: only the corpus

    await h['upstream.set']({ url: a.server.url, profile: 'spec', mode: 'cache-first' });
    await h['upstream.setKey']({ key: a.key });
    const user = await h['users.lookup']({ user: AUTHOR_ID });
    expect(user.id_str).toBe(AUTHOR_ID);
    const page = await h['timeline.page']({ user_id: AUTHOR_ID, kind: 'tweets' });
    const direct = (await a.server.request(`/social/user/${AUTHOR_ID}/tweets`, { key: a.key })).json() as { tweets: { id_str: string; full_text: string }[] };
    expect(page.tweets.map((t) => [t.id_str, t.full_text])).toEqual(direct.tweets.map((t) => [t.id_str, t.full_text]));
    expect(page.tweets.length).toBe(20);
    expect(posts()).toBe(20);

    // the post detail opened from the list: stored by the page, so fresh, no request
    const lines = spentLines(engine);
    expect((await h['post.get']({ id: page.tweets[0]!.id_str })).tweet.id_str).toBe(page.tweets[0]!.id_str);
    // the same page again, within its freshness: served from the corpus, nothing spent
    expect((await h['timeline.page']({ user_id: AUTHOR_ID, kind: 'tweets' })).tweets.map((t) => t.id_str)).toEqual(page.tweets.map((t) => t.id_str));
    expect(spentLines(engine)).toBe(lines);

    // a post not stored yet comes from the upstream
    expect(engine.db.prepare('SELECT count(*) FROM posts WHERE id = ?').pluck().get(BigInt(DETAIL_ID))).toBe(0);
    expect((await h['post.get']({ id: DETAIL_ID })).tweet.id_str).toBe(DETAIL_ID);
    expect(spentLines(engine)).toBe(lines + 1);

    // the spend is the app's: 1 user + 20 posts + 1 post, in the 'app' user's ledger too
    const state = await h['upstream.get']();
    expect(state.spend.all).toMatchObject({ items: 22, requests: 3 });
    expect(state.spend.today.items).toBe(22);
    expect(state.spend.by_user).toEqual([expect.objectContaining({ via: 'app', api_user_id: 1, user_name: 'app', items: 22, requests: 3 })]);
    const appLedger = await h['credits.ledger']({ user_id: 1 });
    expect(appLedger.upstream_items).toBe(22);
    expect(appLedger.entries.filter((e) => e.kind === 'upstream').map((e) => [e.upstream_items, e.amount, e.held])).toEqual([[1, 0, 0], [20, 0, 0], [1, 0, 0]]);
    expect(state.spend.all.usd).toBeCloseTo(22 * DEFAULT_PRICE_PER_ITEM_USD, 9);

    // offline: the corpus only, even for what is not stored; nothing is asked
    await h['upstream.set']({ url: a.server.url, profile: 'spec', mode: 'offline' });
    expect((await h['timeline.page']({ user_id: AUTHOR_ID, kind: 'tweets' })).tweets.length).toBe(20);
    await expect(h['post.get']({ id: REPLY_ID })).rejects.toMatchObject({ code: 'not_found' });
    expect(spentLines(engine)).toBe(lines + 1);
  });

  it("the app's search reads through the upstream: pages fill the corpus, the next page follows, a repeat costs nothing", async () => {
    const a = await upstreamSkein();
    const { engine, h } = appOf();
    const query = `from:user${AUTHOR_ID.slice(-4)}`; // the fixture's screen names
    expect((await h['search.page']({ query, type: 'Latest' })).tweets).toEqual([]); // offline: the empty corpus
    await h['upstream.set']({ url: a.server.url, profile: 'spec', mode: 'cache-first' });
    await h['upstream.setKey']({ key: a.key });
    const direct = async (cursor?: string) =>
      (await a.server.request(`/social/search?query=${encodeURIComponent(query)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: a.key })).json() as {
        next_cursor: string;
        tweets: { id_str: string }[];
      };
    const first = await h['search.page']({ query, type: 'Latest' });
    const onA = await direct();
    expect(first.tweets.map((t) => t.id_str)).toEqual(onA.tweets.map((t) => t.id_str));
    expect(first.tweets.length).toBe(20);
    expect(first.next_cursor).not.toBeNull();
    const second = await h['search.page']({ query, type: 'Latest', cursor: first.next_cursor });
    expect(second.tweets.map((t) => t.id_str)).toEqual((await direct(onA.next_cursor)).tweets.map((t) => t.id_str));
    const lines = spentLines(engine);
    expect(lines).toBe(2);
    expect((await h['search.page']({ query, type: 'Latest' })).tweets.map((t) => t.id_str)).toEqual(first.tweets.map((t) => t.id_str));
    expect(spentLines(engine)).toBe(lines);
  });

  it("the app's reply tree through the upstream: the post and its conversation's newest page are fetched, then shown from the corpus", async () => {
    const a = await upstreamSkein();
    const { engine, h } = appOf();
    await h['upstream.set']({ url: a.server.url, profile: 'spec', mode: 'cache-first' });
    await h['upstream.setKey']({ key: a.key });
    const tree = await h['post.replies']({ id: OTHER_POST_ID });
    const onA = a.engine.db.prepare('SELECT id FROM posts WHERE in_reply_to_status_id = ? ORDER BY id DESC').safeIntegers(true).pluck().all(BigInt(OTHER_POST_ID)) as bigint[];
    expect(onA.length).toBeGreaterThan(0);
    expect(tree.levels[0]!.tweets.map((t) => t.id_str)).toEqual(onA.map(String)); // 10 replies: one page
    const lines = spentLines(engine);
    expect(lines).toBe(2); // the post, the page
    await h['post.replies']({ id: OTHER_POST_ID });
    expect(spentLines(engine)).toBe(lines);
  });

  it('an upstream that refuses the key: a read of what is not stored is a clear upstream error, not an internal one', async () => {
    const a = await upstreamSkein();
    const { app, h } = appOf();
    await h['upstream.set']({ url: a.server.url, profile: 'spec', mode: 'refresh' });
    await h['upstream.setKey']({ key: a.key });
    revokeKey(a.engine, a.key);
    const r = await dispatch(app.handlers, 'post.get', { id: DETAIL_ID });
    expect(r).toMatchObject({ ok: false, error: { code: 'upstream', message: expect.stringContaining('HTTP 401') } });
  });

  it('with a keychain: a typed key goes there (source keychain), and removing the source deletes it', async () => {
    const a = await upstreamSkein();
    const kept = new Map<string, string>();
    // Stands in for the OS keychain's one account (the real adapter has its own test: keychain.test.ts).
    const store: UpstreamKeyStore = {
      get: async () => kept.get('key') ?? null,
      set: async (key) => void kept.set('key', key),
      delete: async () => kept.delete('key'),
    };
    const { engine, h } = appOf({ upstreamKeyStore: store });
    // The engine reads the key from the same keychain, as desktop/main.ts builds it.
    Object.assign(engine, { upstreamKeys: sessionKeySource({ describe: 'the OS keychain', get: store.get }) });
    expect((await h['upstream.get']()).key).toMatchObject({ store: 'keychain', source: 'none' });
    await h['upstream.set']({ url: a.server.url, profile: 'spec' });
    const state = await h['upstream.setKey']({ key: a.key });
    expect(kept.get('key')).toBe(a.key);
    expect(state.key).toMatchObject({ present: true, source: 'keychain', masked: maskKey(a.key) });
    expect((await h['upstream.test']()).ok).toBe(true);
    const removed = await h['upstream.remove']();
    expect(removed).toMatchObject({ removed: true, config: null, key: { present: false, source: 'none' } });
    expect(kept.size).toBe(0);
  });

  it('a key from SKEIN_UPSTREAM_KEY: shown as such, and a typed key that would not be used is refused, saying why', async () => {
    const before = process.env[UPSTREAM_KEY_ENV];
    process.env[UPSTREAM_KEY_ENV] = 'sk_from_the_environment_42';
    try {
      const { engine, app, h } = appOf();
      // as skein serve builds it where no keychain answers
      Object.assign(engine, { upstreamKeys: sessionKeySource(keychainKeySource(null)) });
      expect((await h['upstream.get']()).key).toMatchObject({ present: true, source: 'environment', masked: maskKey('sk_from_the_environment_42') });
      const r = await dispatch(app.handlers, 'upstream.setKey', { key: 'sk_typed_in_settings_0001' });
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining(`${UPSTREAM_KEY_ENV} is set for this Skein`) } });
      expect(JSON.stringify(r)).not.toContain('sk_typed_in_settings_0001');
      expect((await h['upstream.get']()).key).toMatchObject({ source: 'environment', masked: maskKey('sk_from_the_environment_42') });
    } finally {
      if (before === undefined) delete process.env[UPSTREAM_KEY_ENV];
      else process.env[UPSTREAM_KEY_ENV] = before;
    }
  });
});

describe('handlers: a job from the app through the upstream', () => {
  it('shows what the job may fetch, and over the threshold starts it only once confirmed', async () => {
    const a = await upstreamSkein();
    const { engine, app, h } = appOf();
    await h['upstream.set']({ url: a.server.url, profile: 'spec', confirm_over_items: 100, budget_items: 1_000 });
    await h['upstream.setKey']({ key: a.key });
    const small = await h['jobs.estimate']({ kind: 'search', query: 'mentions', max_count: 50 });
    expect(small.upstream).toEqual({ items: 50, usd: 50 * DEFAULT_PRICE_PER_ITEM_USD, confirm: false, threshold: 100, budget_left: 1_000 });
    const big = { kind: 'search' as const, query: 'mentions', max_count: 500 };
    expect((await h['jobs.estimate'](big)).upstream).toMatchObject({ items: 500, confirm: true });
    const refused = await dispatch(app.handlers, 'jobs.create', big);
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(JSON.stringify(refused)).toContain("'confirm_upstream': this job may fetch up to 500 items ($0.10) from the upstream");
    expect(engine.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(0);
    const { job_id } = await h['jobs.create']({ ...big, confirm_upstream: true });
    expect(engine.db.prepare('SELECT request FROM job_upstream WHERE job_id = ?').pluck().get(job_id)).toBe('/social/search?query=mentions&type=Latest');
  });

  it('a reply job on a post the app has not stored fetches the post first', async () => {
    const a = await upstreamSkein();
    const { engine, h } = appOf();
    await h['upstream.set']({ url: a.server.url, profile: 'spec' });
    await h['upstream.setKey']({ key: a.key });
    expect(engine.db.prepare('SELECT count(*) FROM posts WHERE id = ?').pluck().get(BigInt(DETAIL_ID))).toBe(0);
    const estimate = await h['jobs.estimate']({ kind: 'replies', tweet_id: DETAIL_ID });
    expect(estimate.hold).toBeGreaterThanOrEqual(0);
    expect(engine.db.prepare('SELECT count(*) FROM posts WHERE id = ?').pluck().get(BigInt(DETAIL_ID))).toBe(1);
  });
});
