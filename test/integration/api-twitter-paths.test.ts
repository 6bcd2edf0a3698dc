import { describe, expect, it } from 'vitest';
import { upsertUser } from '../../src/main/engine/corpus/write';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, charge } from '../../src/main/engine/ledger';
import { UNSERVED_TWITTER_ROUTES } from '../../src/main/http/routes/twitter-unserved';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import {
  ARTICLE_ID, AUTHOR_ID, AUTHOR_POSTS, DETAIL_ID, fund, OTHER_ID, PROTECTED_ID, SPACE_ID, writeApiCorpus,
} from '../fixtures/api-corpus';

// The real service's paths (/twitter/..., /user/balance): real HTTP on loopback, the real store,
// real metering. An alias must answer exactly as its /social twin: same status, same bytes, same price.

const JSON_TYPE = 'application/json; charset=utf-8';
type Obj = Record<string, unknown>;
type Page = { next_cursor: string; tweets: Obj[] };

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const server = await startServer(engine);
  const { key, user } = createKey(engine, 'script');
  fund(engine, user.id);
  const get = (path: string, k: string | undefined = key) => server.request(path, k ? { key: k } : {});
  const available = () => balanceOf(engine.db, user.id).available;
  /** The response and the credits it cost. */
  const priced = async (path: string, init: RequestInit = {}) => {
    const before = available();
    const res = await server.request(path, { ...init, key });
    return { res, cost: before - available() };
  };
  return { engine, server, key, userId: user.id, get, available, priced };
}

const AUTHOR_SCREEN_NAME = `user${AUTHOR_ID.slice(-4)}`;

/** [the real service's path, the /social twin]; errors included: they must be the same too. */
const TWINS: [string, string][] = [
  [`/twitter/user/${AUTHOR_ID}/tweets`, `/social/user/${AUTHOR_ID}/tweets`],
  [`/twitter/user/${AUTHOR_ID}/tweets-and-replies`, `/social/user/${AUTHOR_ID}/tweets-and-replies`],
  [`/twitter/tweets/${DETAIL_ID}`, `/social/tweets/${DETAIL_ID}`],
  [`/twitter/statuses/show?id=${DETAIL_ID}`, `/social/statuses/show?id=${DETAIL_ID}`],
  [`/twitter/article/${ARTICLE_ID}`, `/social/article/${ARTICLE_ID}`],
  [`/twitter/space/${SPACE_ID}`, `/social/spaces/show?id=${SPACE_ID}`],
  ['/twitter/search?query=mentions', '/social/search?query=mentions'],
  ['/twitter/search?query=mentions&type=Top', '/social/search?query=mentions&type=Top'],
  // errors: unknown, malformed, protected, a bad query
  ['/twitter/tweets/42', '/social/tweets/42'],
  ['/twitter/tweets/abc', '/social/tweets/abc'],
  ['/twitter/statuses/show', '/social/statuses/show'],
  [`/twitter/article/${DETAIL_ID}`, `/social/article/${DETAIL_ID}`],
  [`/twitter/user/${PROTECTED_ID}/tweets`, `/social/user/${PROTECTED_ID}/tweets`],
  ['/twitter/user/42/tweets-and-replies', '/social/user/42/tweets-and-replies'],
  [`/twitter/user/${AUTHOR_ID}/tweets?cursor=forged`, `/social/user/${AUTHOR_ID}/tweets?cursor=forged`],
  ['/twitter/space/nosuchspace', '/social/spaces/show?id=nosuchspace'],
  ['/twitter/space/bad!id', '/social/spaces/show?id=bad!id'],
  ['/twitter/space/a+b', '/social/spaces/show?id=a%2Bb'],
  ['/twitter/search?query=%22unclosed', '/social/search?query=%22unclosed'],
  ['/twitter/search?query=x&type=latest', '/social/search?query=x&type=latest'],
];

describe('the real service\'s paths for the reads Skein serves', () => {
  it('answer byte for byte as their /social twins, with the same status, headers of note and price', async () => {
    const { priced } = await setup();
    for (const [twitter, social] of TWINS) {
      const a = await priced(twitter);
      const b = await priced(social);
      expect(a.res.status, twitter).toBe(b.res.status);
      expect(a.res.text, twitter).toBe(b.res.text);
      expect(a.res.headers.get('content-type'), twitter).toBe(JSON_TYPE);
      expect(a.res.headers.get('ratelimit-policy'), twitter).toBe(b.res.headers.get('ratelimit-policy'));
      expect(a.cost, twitter).toBe(b.cost);
      if (a.res.status === 200) expect(a.cost, twitter).toBeGreaterThan(0);
      else expect(a.cost, twitter).toBe(0);
    }
  });

  it('a timeline pages on with the cursor either path handed out', async () => {
    const { get } = await setup();
    const first = (await get(`/twitter/user/${AUTHOR_ID}/tweets-and-replies`)).json() as Page;
    expect(first.tweets).toHaveLength(20);
    const cursor = encodeURIComponent(first.next_cursor);
    const viaTwitter = await get(`/twitter/user/${AUTHOR_ID}/tweets-and-replies?cursor=${cursor}`);
    const viaSocial = await get(`/social/user/${AUTHOR_ID}/tweets-and-replies?cursor=${cursor}`);
    expect(viaTwitter.status).toBe(200);
    expect(viaTwitter.text).toBe(viaSocial.text);
    expect((viaTwitter.json() as Page).tweets).toHaveLength(AUTHOR_POSTS + 1 - 20); // the article's post is the author's too
  });

  it('GET /twitter/search pages by 20 with next_cursor, a second page, and "" after the last', async () => {
    const { get } = await setup();
    for (const type of ['Latest', 'Top']) {
      const seen: string[] = [];
      const sizes: number[] = [];
      let path = `/twitter/search?query=mentions&type=${type}`;
      for (let i = 0; i < 5; i++) {
        const res = await get(path);
        expect(res.status).toBe(200);
        const page = res.json() as Page;
        expect(Object.keys(page)).toEqual(['next_cursor', 'tweets']);
        sizes.push(page.tweets.length);
        seen.push(...page.tweets.map((t) => t.id_str as string));
        if (page.next_cursor === '') break;
        path = `/twitter/search?query=mentions&type=${type}&cursor=${encodeURIComponent(page.next_cursor)}`;
      }
      // 30 of the author's posts, the article's post, the other user's; the protected account's is not public.
      expect(sizes).toEqual([20, 12, 0]);
      expect(new Set(seen).size).toBe(32);
      expect(seen).not.toContain('900000000000000002');
    }
  });

  it('only the aliases themselves are rewritten: another path or method gets the generic 404 naming it as sent', async () => {
    const { server, key } = await setup();
    expect((await server.request(`/twitter/tweets/${DETAIL_ID}`, { key })).status).toBe(200);
    expect((await server.request(`/twitter/tweets/${DETAIL_ID}`, { method: 'HEAD', key })).status).toBe(200);
    for (const [method, path] of [
      ['POST', `/twitter/tweets/${DETAIL_ID}`],
      ['GET', `/twitter/tweets/${DETAIL_ID}/`],
      ['GET', '/twitter/tweets//x'],
      ['GET', '/twitter/statuses/show/1'],
      ['GET', '/twitter/nothing'],
    ] as const) {
      const res = await server.request(path, { method, key });
      expect(res.status, path).toBe(404);
      expect(res.json(), path).toEqual({ status: 'error', message: `No endpoint ${method} ${path}.` });
    }
  });
});

const PROFILE_KEYS = [
  'id', 'id_str', 'name', 'screen_name', 'location', 'url', 'description', 'protected', 'verified', 'followers_count',
  'friends_count', 'listed_count', 'favourites_count', 'statuses_count', 'created_at', 'profile_banner_url',
  'profile_image_url_https', 'can_dm',
];

describe('GET /twitter/user/<id or screen_name>', () => {
  it('answers the user\'s profile in the service\'s field order, the id exact, the same object a post\'s details nest', async () => {
    const { get, priced } = await setup();
    const { res, cost } = await priced(`/twitter/user/${AUTHOR_ID}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    expect(cost).toBe(1);
    expect(Object.keys(res.json() as Obj)).toEqual(PROFILE_KEYS);
    expect(res.text.startsWith(`{"id":${AUTHOR_ID},"id_str":"${AUTHOR_ID}","name":"User 6789","screen_name":"${AUTHOR_SCREEN_NAME}"`)).toBe(true);
    expect(res.json()).toMatchObject({ created_at: '2018-10-10T20:19:24.654321Z', protected: false, followers_count: 10, url: null });
    const detail = (await get(`/social/tweets/${DETAIL_ID}`)).text;
    expect(detail).toContain(`"user":${res.text},`);
  });

  it('by screen name: any case, with or without @, the same bytes as by id', async () => {
    const { get, priced } = await setup();
    const byId = (await get(`/twitter/user/${AUTHOR_ID}`)).text;
    for (const name of [AUTHOR_SCREEN_NAME, AUTHOR_SCREEN_NAME.toUpperCase(), `@${AUTHOR_SCREEN_NAME}`, `%40${AUTHOR_SCREEN_NAME}`]) {
      const { res, cost } = await priced(`/twitter/user/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.text, name).toBe(byId);
      expect(cost).toBe(1);
    }
    const other = (await get(`/twitter/user/user${OTHER_ID.slice(-4)}`)).json() as Obj;
    expect(other.id_str).toBe(OTHER_ID);
  });

  it('a protected account\'s profile is served, protected: true (the platform shows it to anyone)', async () => {
    const { get } = await setup();
    const res = await get(`/twitter/user/${PROTECTED_ID}`);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id_str: PROTECTED_ID, protected: true });
  });

  it('unknown users are 404, a user known only as a post\'s author is 404 saying so, malformed names 422; none is charged', async () => {
    const { engine, priced } = await setup();
    upsertUser(engine.db, { id_str: '5555' }, { retrievedAtMs: engine.clock.nowMs() });
    const cases: [string, number, string][] = [
      ['/twitter/user/42', 404, 'User 42 was not found.'],
      ['/twitter/user/nosuchuser', 404, 'User nosuchuser was not found.'],
      ['/twitter/user/99999999999999999999', 404, 'User 99999999999999999999 was not found.'],
      ['/twitter/user/5555', 404, 'User 5555 was not found: Skein holds no profile for this id, only posts that name it as their author.'],
      ['/twitter/user/bad-name', 422, "Invalid parameter 'user': give a numeric user id or a screen name (letters, digits and _), got 'bad-name'."],
      ['/twitter/user/%C3%A9', 422, "Invalid parameter 'user': give a numeric user id or a screen name (letters, digits and _), got '?'."],
      [`/twitter/user/${'a'.repeat(51)}`, 422, `Invalid parameter 'user': give a numeric user id or a screen name (letters, digits and _), got '${'a'.repeat(40)}...'.`],
    ];
    for (const [path, status, message] of cases) {
      const { res, cost } = await priced(path);
      expect(res.status, path).toBe(status);
      expect(res.json(), path).toEqual({ status: 'error', message });
      expect(cost, path).toBe(0);
    }
  });
});

describe('GET /twitter/user/<id or screen_name> at zero credits', () => {
  it('a malformed name is 422 before the balance check; a good one is 402', async () => {
    const { engine, userId, get, available } = await setup();
    charge(engine.db, { transferId: 'test:drain', userId, amount: available(), nowMs: engine.clock.nowMs() });
    expect((await get('/twitter/user/bad-name')).status).toBe(422);
    expect((await get(`/twitter/user/${AUTHOR_ID}`)).status).toBe(402);
    expect((await get(`/twitter/user/${AUTHOR_SCREEN_NAME}`)).status).toBe(402);
  });
});

describe('GET /user/balance', () => {
  it('is {"status":"success","balance":<US dollars>}: available credits at $0.0002 each, and free', async () => {
    const { engine, userId, get, available } = await setup();
    charge(engine.db, { transferId: 'test:drain', userId, amount: available() - 12_345, nowMs: engine.clock.nowMs() });
    const res = await get('/user/balance');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    expect(res.text).toBe('{"status":"success","balance":2.469}');
    expect(res.json()).toEqual({ status: 'success', balance: 2.469 });
    expect(available()).toBe(12_345);
    // It moves with what the key spends: a timeline page of 20 is 20 credits, $0.004.
    expect((await get(`/twitter/user/${AUTHOR_ID}/tweets`)).status).toBe(200);
    expect(available()).toBe(12_345 - 20);
    expect((await get('/user/balance')).text).toBe('{"status":"success","balance":2.465}');
  });

  it('is 0 at zero credits (still answered: it is free), and exact at every count of credits', async () => {
    const { engine, userId, get, available } = await setup();
    charge(engine.db, { transferId: 'test:drain', userId, amount: available() - 7, nowMs: engine.clock.nowMs() });
    expect((await get('/user/balance')).text).toBe('{"status":"success","balance":0.0014}');
    charge(engine.db, { transferId: 'test:rest', userId, amount: 7, nowMs: engine.clock.nowMs() });
    expect((await get('/user/balance')).text).toBe('{"status":"success","balance":0}');
  });
});

describe('the real service\'s endpoints Skein does not serve', () => {
  it('answer 404 in the spec\'s error body saying why, cost nothing, and need a key', async () => {
    const { server, key, available } = await setup();
    expect(UNSERVED_TWITTER_ROUTES.length).toBeGreaterThan(30);
    for (const [method, template] of UNSERVED_TWITTER_ROUTES) {
      const path = template.replace(/:\w+/g, '123');
      const init: RequestInit = method === 'POST' || method === 'PATCH'
        ? { method, body: JSON.stringify({ ids: ['1'] }), headers: { 'content-type': 'application/json' } }
        : { method };
      const before = available();
      const res = await server.request(path, { ...init, key });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toBe(JSON_TYPE);
      const body = res.json() as { status: string; message: string };
      expect(Object.keys(body)).toEqual(['status', 'message']);
      expect(body.status).toBe('error');
      expect(body.message.startsWith(`Not served by Skein: ${method} ${template.replace(/:(\w+)/g, '<$1>')}. `), body.message).toBe(true);
      expect(available(), path).toBe(before);
      // The SDK retries 408, 409, 429 and 5xx (and obeys x-should-retry): a 404 ends its call at once.
      expect(res.headers.get('x-should-retry')).toBeNull();
      expect((await server.request(path, init)).status, `${method} ${path} without a key`).toBe(401);
    }
  });

  it('name the data Skein lacks or the request that finds it', async () => {
    const { get } = await setup();
    const message = async (path: string) => ((await get(path)).json() as { message: string }).message;
    expect(await message(`/twitter/user/${AUTHOR_ID}/followers`)).toBe(
      "Not served by Skein: GET /twitter/user/<user_id>/followers. Skein answers from its local corpus (posts, their authors' profiles, articles and spaces) and holds no follower or following data.",
    );
    expect(await message(`/twitter/user/${AUTHOR_ID}/likes`)).toMatch(/holds no likes/);
    expect(await message('/twitter/list/1/tweets')).toMatch(/holds no lists/);
    expect(await message('/twitter/community/1/members')).toMatch(/holds no communities/);
    expect(await message(`/twitter/tweets/${DETAIL_ID}/quotes`)).toMatch(/GET \/twitter\/search\?query=quoted_tweet_id:<tweet_id>/);
    expect(await message(`/twitter/tweets/${DETAIL_ID}/comments`)).toMatch(/conversation_id:<tweet_id>/);
  });
});

describe('auth and the rate limit on the real service\'s paths', () => {
  const served = [
    `/twitter/user/${AUTHOR_ID}/tweets`, `/twitter/user/${AUTHOR_ID}/tweets-and-replies`, `/twitter/tweets/${DETAIL_ID}`,
    `/twitter/statuses/show?id=${DETAIL_ID}`, `/twitter/article/${ARTICLE_ID}`, `/twitter/space/${SPACE_ID}`,
    '/twitter/search?query=mentions', `/twitter/user/${AUTHOR_ID}`, '/user/balance',
  ];

  it('401 in the spec body without a key, or with an unknown one', async () => {
    const { get } = await setup();
    for (const path of served) {
      for (const k of ['', `sk_${'0'.repeat(48)}`]) {
        const res = await get(path, k);
        expect(res.status, path).toBe(401);
        expect((res.json() as Obj).status).toBe('error');
      }
    }
  });

  it('count against the same per-user limit as /social, 429 with retry-after-ms beyond it', async () => {
    const { engine, userId, get } = await setup();
    engine.db.prepare('UPDATE api_users SET per_minute_limit = ? WHERE id = ?').run(served.length + 1, userId);
    for (const path of served) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe(`"per-user";q=${served.length + 1};w=60`);
    }
    expect((await get(`/social/tweets/${DETAIL_ID}`)).status).toBe(200);
    for (const path of [...served, `/twitter/user/${AUTHOR_ID}/followers`]) {
      const refused = await get(path);
      expect(refused.status, path).toBe(429);
      expect(Number(refused.headers.get('retry-after-ms'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after-ms'))).toBeLessThan(60_000 + 1);
    }
    engine.clock.advance(60_000);
    expect((await get('/twitter/tweets/42')).status).toBe(404);
  });
});

/**
 * A request as the official TypeScript SDK (github.com/socialdata-api/typescript-sdk, Stainless)
 * sends it, from its source: the base URL joined with the path, each path value through
 * encodeURIComponent, the query as `encodeURIComponent(key)=encodeURIComponent(value)` for each
 * defined value in the order given, and its headers.
 */
function sdkUrl(base: string, path: string, query: Record<string, string | undefined> = {}): string {
  const search = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v!)}`)
    .join('&');
  return `${base}${path}${search ? `?${search}` : ''}`;
}

describe('requests in the exact forms of the official TypeScript SDK', () => {
  it('every read method the SDK has for what Skein holds answers 200 with the service\'s shape', async () => {
    const { server, key } = await setup();
    const headers = {
      Accept: 'application/json',
      'User-Agent': 'SocialData/JS 0.1.0-alpha.2',
      'X-Stainless-Retry-Count': '0',
      'X-Stainless-Timeout': '60',
      Authorization: `Bearer ${key}`,
    };
    const call = async (path: string, query?: Record<string, string | undefined>) => {
      const res = await fetch(sdkUrl(server.url, path, query), { method: 'GET', headers });
      return { status: res.status, body: (await res.json()) as Obj };
    };
    const e = encodeURIComponent;

    // twitter.users.getUserTweets / getUserTweetsAndReplies(userID, { cursor })
    const tweets = await call(`/twitter/user/${e(AUTHOR_ID)}/tweets`, { cursor: undefined });
    expect(tweets.status).toBe(200);
    expect(Object.keys(tweets.body)).toEqual(['next_cursor', 'tweets']);
    const more = await call(`/twitter/user/${e(AUTHOR_ID)}/tweets-and-replies`, { cursor: tweets.body.next_cursor as string });
    expect(more.status).toBe(422); // a cursor is good for its own timeline only, as on /social
    const replies = await call(`/twitter/user/${e(AUTHOR_ID)}/tweets-and-replies`, {});
    const page2 = await call(`/twitter/user/${e(AUTHOR_ID)}/tweets-and-replies`, { cursor: replies.body.next_cursor as string });
    expect(page2.status).toBe(200);
    // twitter.tweets.getTweet(tweetID)
    expect((await call(`/twitter/tweets/${e(DETAIL_ID)}`)).body).toMatchObject({ id_str: DETAIL_ID });
    // twitter.searchResults.retrieve({ query, cursor, type })
    const search = await call('/twitter/search', { query: 'mentions from:user6789', cursor: undefined, type: 'Latest' });
    expect(search.status).toBe(200);
    expect((search.body.tweets as Obj[]).length).toBe(20);
    const next = await call('/twitter/search', { query: 'mentions from:user6789', cursor: search.body.next_cursor as string, type: 'Latest' });
    expect((next.body.tweets as Obj[]).length).toBe(AUTHOR_POSTS + 1 - 20);
    // twitter.spaces.getSpace(spaceID)
    expect((await call(`/twitter/space/${e(SPACE_ID)}`)).body).toMatchObject({ id: SPACE_ID });
    // twitter.users.getUserByID(userID) / getUserByUsername(username)
    expect((await call(`/twitter/user/${e(AUTHOR_ID)}`)).body).toMatchObject({ id_str: AUTHOR_ID });
    expect((await call(`/twitter/user/${e(AUTHOR_SCREEN_NAME)}`)).body).toMatchObject({ id_str: AUTHOR_ID });
    // user.getBalance()
    const balance = await call('/user/balance');
    expect(Object.keys(balance.body)).toEqual(['status', 'balance']);
    expect(typeof balance.body.balance).toBe('number');
  });

  it('a 429 carries the retry-after-ms the SDK waits for (under 60 s) before its retry', async () => {
    const { engine, server, key, userId } = await setup();
    engine.db.prepare('UPDATE api_users SET per_minute_limit = 1 WHERE id = ?').run(userId);
    const headers = { Accept: 'application/json', Authorization: `Bearer ${key}`, 'X-Stainless-Retry-Count': '0' };
    expect((await fetch(sdkUrl(server.url, `/twitter/tweets/${DETAIL_ID}`), { headers })).status).toBe(200);
    engine.clock.advance(1_000);
    const refused = await fetch(sdkUrl(server.url, `/twitter/tweets/${DETAIL_ID}`), { headers });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after-ms')).toBe('59000');
    engine.clock.advance(59_000);
    const retried = await fetch(sdkUrl(server.url, `/twitter/tweets/${DETAIL_ID}`), { headers: { ...headers, 'X-Stainless-Retry-Count': '1' } });
    expect(retried.status).toBe(200);
  });
});
