import { describe, expect, it } from 'vitest';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, charge } from '../../src/main/engine/ledger';
import { SeededIds } from '../../src/main/engine/ids';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import {
  apiKey, ARTICLE_ID, AUTHOR_ID, AUTHOR_POSTS, DETAIL_ID, OTHER_ID, POST_BASE, PROTECTED_ID, REPLY_ID, SPACE_ID, writeApiCorpus,
} from '../fixtures/api-corpus';

const JSON_TYPE = 'application/json; charset=utf-8';

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const server = await startServer(engine);
  const key = apiKey(engine);
  const get = (path: string) => server.request(path, { key });
  return { engine, server, key, get };
}

type Obj = Record<string, unknown>;

describe('tweet details (4.3)', () => {
  it('writes ids above 2^53 as exact integers in the raw text, both forms', async () => {
    const { get } = await setup();
    for (const path of [`/social/tweets/${DETAIL_ID}`, `/social/statuses/show?id=${DETAIL_ID}`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(JSON_TYPE);
      expect(res.text).toContain(`"id":${DETAIL_ID},"id_str":"${DETAIL_ID}"`);
      expect(res.text).toContain(`"user":{"id":${AUTHOR_ID},"id_str":"${AUTHOR_ID}"`);
      expect(res.text).toContain('"text":null');
      expect(res.text).toContain('"tweet_created_at":"2024-03-05T17:02:01.123456Z"');
      expect(res.text).toContain('"created_at":"2018-10-10T20:19:24.654321Z"');
    }
  });

  it('keys in the spec order with every field of 2.1', async () => {
    const { get } = await setup();
    const t = (await get(`/social/tweets/${REPLY_ID}`)).json() as Obj;
    expect(Object.keys(t)).toEqual([
      'tweet_created_at', 'id', 'id_str', 'text', 'full_text', 'source', 'truncated', 'in_reply_to_status_id',
      'in_reply_to_status_id_str', 'in_reply_to_user_id', 'in_reply_to_user_id_str', 'in_reply_to_screen_name', 'user',
      'quoted_status_id', 'quoted_status_id_str', 'is_quote_status', 'quoted_status', 'retweeted_status', 'quote_count',
      'reply_count', 'retweet_count', 'favorite_count', 'lang', 'entities', 'views_count', 'bookmark_count',
    ]);
    expect(Object.keys(t.entities as Obj)).toEqual(['user_mentions', 'urls', 'hashtags', 'symbols']);
    expect(t.in_reply_to_user_id_str).toBe(OTHER_ID);
    expect(t.quoted_status_id).toBeNull();
    expect(typeof t.favorite_count).toBe('number');
  });

  it('404 says the tweet was not found; 422 names id', async () => {
    const { get } = await setup();
    const missing = await get('/social/tweets/42');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ status: 'error', message: 'Tweet 42 was not found.' });
    for (const path of ['/social/tweets/abc', '/social/statuses/show?id=12x', '/social/statuses/show', '/social/statuses/show?id=',
      '/social/statuses/show?id=1&id=2', '/social/tweets/99999999999999999999', '/social/tweets/-1']) {
      const res = await get(path);
      expect(res.status, path).toBe(422);
      expect(res.headers.get('content-type')).toBe(JSON_TYPE);
      const body = res.json() as Obj;
      expect(body.status).toBe('error');
      expect(body.message, path).toMatch(/'id'/);
    }
  });
});

describe('timelines (4.1, 4.2)', () => {
  async function walk(get: (p: string) => Promise<{ status: number; json: () => unknown }>, path: string) {
    const pages: { next_cursor: string; tweets: Obj[] }[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await get(cursor === undefined ? path : `${path}?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(200);
      const page = res.json() as { next_cursor: string; tweets: Obj[] };
      pages.push(page);
      if (page.next_cursor === '') break;
      cursor = page.next_cursor;
    }
    return pages;
  }

  it('tweets-and-replies: pages of 20, newest first, no duplicates, ends with an empty page and ""', async () => {
    const { get } = await setup();
    const pages = await walk(get, `/social/user/${AUTHOR_ID}/tweets-and-replies`);
    expect(pages.map((p) => p.tweets.length)).toEqual([20, 11, 0]); // 30 posts + the article post
    expect(pages.at(-1)!.next_cursor).toBe('');
    const ids = pages.flatMap((p) => p.tweets.map((t) => BigInt(t.id_str as string)));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)));
    expect(ids).toContain(BigInt(REPLY_ID));
  });

  it('tweets leaves replies out', async () => {
    const { get } = await setup();
    const pages = await walk(get, `/social/user/${AUTHOR_ID}/tweets`);
    const ids = pages.flatMap((p) => p.tweets.map((t) => t.id_str as string));
    expect(ids.length).toBe(AUTHOR_POSTS - AUTHOR_POSTS / 3 + 1);
    expect(ids).not.toContain(REPLY_ID);
    expect(pages.every((p) => p.tweets.every((t) => t.in_reply_to_status_id_str === null))).toBe(true);
  });

  it('timeline items carry _str ids only, microsecond timestamps', async () => {
    const { get } = await setup();
    const res = await get(`/social/user/${AUTHOR_ID}/tweets-and-replies`);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    const page = res.json() as { tweets: Obj[] };
    const reply = page.tweets.find((t) => t.id_str === (POST_BASE + 30n).toString())!;
    expect(reply.in_reply_to_status_id_str).not.toBeNull();
    for (const field of ['id', 'in_reply_to_status_id', 'in_reply_to_user_id', 'quoted_status_id']) expect(reply).not.toHaveProperty(field);
    expect(reply.user).not.toHaveProperty('id');
    expect((reply.user as Obj).id_str).toBe(AUTHOR_ID);
    expect(reply.in_reply_to_status_id_str).toMatch(/^\d+$/);
    expect(reply.tweet_created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(res.text).not.toMatch(/"id":\d/);
  });

  it('403 for a protected user, 404 for an unknown one, 422 for a non-numeric user_id', async () => {
    const { get } = await setup();
    for (const kind of ['tweets', 'tweets-and-replies']) {
      const p = await get(`/social/user/${PROTECTED_ID}/${kind}`);
      expect(p.status).toBe(403);
      expect((p.json() as Obj).message).toMatch(/protected/);
      const u = await get(`/social/user/55/${kind}`);
      expect(u.status).toBe(404);
      expect(u.json()).toEqual({ status: 'error', message: 'User 55 was not found.' });
      const bad = await get(`/social/user/jack/${kind}`);
      expect(bad.status).toBe(422);
      expect((bad.json() as Obj).message).toMatch(/'user_id'/);
    }
  });

  it('refuses tampered cursors, cursors of another timeline, and empty cursors, naming cursor', async () => {
    const { get } = await setup();
    const first = (await get(`/social/user/${AUTHOR_ID}/tweets`)).json() as { next_cursor: string };
    const c = first.next_cursor;
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const bad = [flip(c, 5), flip(c, c.length - 1), flip(c, 20), c.slice(1), 'hello', '', `${c}x`];
    for (const cursor of bad) {
      const res = await get(`/social/user/${AUTHOR_ID}/tweets?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(422);
      expect((res.json() as Obj).message).toMatch(/'cursor'/);
    }
    const otherKind = await get(`/social/user/${AUTHOR_ID}/tweets-and-replies?cursor=${c}`);
    expect(otherKind.status).toBe(422);
    expect((otherKind.json() as Obj).message).toMatch(/another timeline/);
    const otherUser = await get(`/social/user/${OTHER_ID}/tweets?cursor=${c}`);
    expect(otherUser.status).toBe(422);
    expect((otherUser.json() as Obj).message).toMatch(/another timeline/);
  });

  it('a cursor stays valid across a restart of the engine on the same data dir', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const s1 = await startServer(engine);
    const key = apiKey(engine);
    const c = ((await s1.request(`/social/user/${AUTHOR_ID}/tweets`, { key })).json() as { next_cursor: string }).next_cursor;
    // Another seed: a second process has its own randomness (metering's transfer ids come from it).
    const again = testEngine({ dataDir: engine.dataDir, ids: new SeededIds('restart') });
    const s2 = await startServer(again);
    const res = await s2.request(`/social/user/${AUTHOR_ID}/tweets?cursor=${c}`, { key });
    expect(res.status).toBe(200);
    expect(((res.json() as { tweets: Obj[] }).tweets[0]!.id_str as string) < (POST_BASE + 30n).toString()).toBe(true);
  });
});

describe('article details (4.4)', () => {
  it('adds created_at, user_id, user_screen_name, article; +00:00 timestamps; entities.timestamps', async () => {
    const { get } = await setup();
    const res = await get(`/social/article/${ARTICLE_ID}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    const t = res.json() as Obj;
    expect(t.tweet_created_at).toBe('2024-03-05T17:02:04+00:00');
    expect(t.created_at).toBe('2024-03-05T17:02:04+00:00');
    expect((t.user as Obj).created_at).toBe('2018-10-10T20:19:24+00:00');
    expect(res.text).toContain(`"user_id":${AUTHOR_ID},`);
    expect(res.text).toContain(`"id":${ARTICLE_ID},"id_str":"${ARTICLE_ID}"`);
    expect(res.text).toContain('"id":1800000000000000777,"id_str":"1800000000000000777"');
    expect(t.user_screen_name).toBe('user6789');
    expect(Object.keys(t.entities as Obj)).toEqual(['user_mentions', 'urls', 'hashtags', 'symbols', 'timestamps']);
    const article = t.article as Obj;
    expect(Object.keys(article)).toEqual(['published_at', 'id', 'id_str', 'title', 'preview_text', 'cover_url', 'content_state', 'media_entities']);
    expect(article.published_at).toBe('2024-03-05T18:00:00+00:00');
    const blocks = (article.content_state as { blocks: Obj[] }).blocks;
    expect(blocks[0]).toMatchObject({ type: 'header-one', inlineStyleRanges: [{ length: 4, offset: 0, style: 'Bold' }] });
  });

  it('404 for an unknown post and for a post without an article; 422 names article_id', async () => {
    const { get } = await setup();
    const none = await get('/social/article/7');
    expect(none.status).toBe(404);
    expect((none.json() as Obj).message).toBe('Tweet 7 was not found.');
    const plain = await get(`/social/article/${DETAIL_ID}`);
    expect(plain.status).toBe(404);
    expect((plain.json() as Obj).message).toMatch(/Tweet .* not found.*no article/);
    const bad = await get('/social/article/x1');
    expect(bad.status).toBe(422);
    expect((bad.json() as Obj).message).toMatch(/'article_id'/);
  });
});

describe('space details (4.5)', () => {
  it('answers on /social/spaces/show and /spaces/show identically, ms integers, ended_at a string', async () => {
    const { get } = await setup();
    const a = await get(`/social/spaces/show?id=${SPACE_ID}`);
    const b = await get(`/spaces/show?id=${SPACE_ID}`);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe(JSON_TYPE);
    expect(b.text).toBe(a.text);
    const s = a.json() as Obj;
    expect(s).toMatchObject({ state: 'Ended', id: SPACE_ID, created_at: 1700000000000, scheduled_start: 1700000100000, started_at: 1700000200000, updated_at: 1700003900000, ended_at: '1700003800000' });
    expect(a.text).toContain('"ended_at":"1700003800000"');
    expect(a.text).toContain('"created_at":1700000000000');
    const legacy = (s.creator as { legacy: Obj }).legacy;
    expect(legacy.created_at).toBe('Wed Oct 10 20:19:24 +0000 2018');
    expect(typeof s.is_space_available_for_replay).toBe('boolean');
  });

  it('404 says the space was not found; 422 names id', async () => {
    const { get } = await setup();
    const res = await get('/social/spaces/show?id=1NoSuchSpace');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ status: 'error', message: 'Space 1NoSuchSpace was not found.' });
    for (const path of ['/spaces/show', '/social/spaces/show?id=', '/social/spaces/show?id=a%20b', '/spaces/show?id=x&id=y']) {
      const r = await get(path);
      expect(r.status, path).toBe(422);
      expect((r.json() as Obj).message, path).toMatch(/'id'/);
    }
  });
});

describe('order of checks', () => {
  it('a malformed parameter is 422 even with no credits left; a well-formed one is then 402', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const created = createKey(engine, 'broke');
    const available = balanceOf(engine.db, created.user.id).available;
    if (available > 0) charge(engine.db, { transferId: 'drain', userId: created.user.id, amount: available, nowMs: engine.clock.nowMs() });
    const get = (path: string) => server.request(path, { key: created.key });
    for (const [path, param] of [['/social/tweets/x', 'id'], ['/social/statuses/show?id=1.5', 'id'], ['/social/article/-', 'article_id'],
      ['/spaces/show?id=%24%24', 'id'], ['/social/user/abc/tweets', 'user_id'], [`/social/user/${AUTHOR_ID}/tweets?cursor=forged`, 'cursor']] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(422);
      expect((res.json() as Obj).message, path).toContain(`'${param}'`);
    }
    for (const path of [`/social/tweets/${DETAIL_ID}`, `/social/user/${AUTHOR_ID}/tweets`, `/spaces/show?id=${SPACE_ID}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(402);
      expect((res.json() as Obj).status).toBe('error');
    }
  });
});

describe('real faults', () => {
  it('a store failure is 500 in the spec body, with no stack trace and no SQL in the message', async () => {
    const { engine, get } = await setup();
    engine.db.exec('DROP TABLE spaces'); // a damaged database: a real fault, not a client mistake
    const res = await get(`/spaces/show?id=${SPACE_ID}`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    const body = res.json() as Obj;
    expect(Object.keys(body)).toEqual(['status', 'message']);
    expect(body.status).toBe('error');
    expect(body.message).toMatch(/retry later/);
    expect(res.text).not.toMatch(/spaces|SQLITE|at \w+ \(|\.ts:/);
  });
});
