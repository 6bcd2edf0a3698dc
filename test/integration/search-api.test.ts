import { describe, expect, it } from 'vitest';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, charge } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { idOf, POSTS, tweetOf, writeSearchCorpus } from '../helpers/search-corpus';
import { fund } from '../fixtures/api-corpus';

// GET /social/search (an extension): real HTTP on loopback, real store, real metering.

const JSON_TYPE = 'application/json; charset=utf-8';
type Page = { next_cursor: string; tweets: Record<string, unknown>[] };

async function setup(extraPosts = 0) {
  const engine = testEngine();
  writeSearchCorpus(engine.db);
  // Bulk posts n = 100.. for paging: "bulk" in the text, favorites = n % 7 so Top differs from Latest.
  engine.db.transaction(() => {
    for (let n = 100; n < 100 + extraPosts; n++) {
      const t = tweetOf({ n, by: 'carol', day: '2024-02-01T00:00:00', text: `bulk post ${n}`, counts: { fav: n % 7 } });
      upsertTweet(engine.db, t, { retrievedAtMs: 1 });
    }
  })();
  const server = await startServer(engine);
  const { key, user } = createKey(engine, 'searcher');
  fund(engine, user.id);
  const get = (path: string, k = key) => server.request(path, k ? { key: k } : {});
  const search = (params: Record<string, string>) => get(`/social/search?${new URLSearchParams(params)}`);
  return { engine, server, key, userId: user.id, get, search };
}

const idsOf = (page: Page) => page.tweets.map((t) => t.id_str as string);

describe('GET /social/search', () => {
  it('answers {next_cursor, tweets} in the timeline shape with exact 19-digit ids', async () => {
    const { search } = await setup();
    const res = await search({ query: 'fox' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    const page = res.json() as Page;
    expect(Object.keys(page)).toEqual(['next_cursor', 'tweets']);
    expect(idsOf(page)).toEqual([idOf(9), idOf(8), idOf(1)].map(String));
    expect(res.text).toContain(`"id_str":"${idOf(9)}"`);
    // Timeline items carry only the _str id forms (spec 2.1).
    expect(page.tweets[0]).not.toHaveProperty('id');
    expect(page.tweets[0]).toHaveProperty('full_text', 'brown fox jumps');
    expect(page.tweets[0]).toHaveProperty('tweet_created_at', '2024-01-09T12:00:00.000000Z');
    // The timelines' rule: a page with tweets carries a cursor; following it gives an empty page and "".
    expect(page.next_cursor).toMatch(/^[A-Za-z0-9_-]{56}$/);
    const after = await search({ query: 'fox', cursor: page.next_cursor });
    expect(after.json()).toEqual({ next_cursor: '', tweets: [] });
  });

  it('pages of 20, Latest newest first and Top best first, no post twice', async () => {
    const { search } = await setup(45);
    for (const type of ['Latest', 'Top'] as const) {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await search({ query: 'bulk', type, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        const page = res.json() as Page;
        sizes.push(page.tweets.length);
        seen.push(...idsOf(page));
        if (page.next_cursor === '') break;
        cursor = page.next_cursor;
      }
      expect(sizes).toEqual([20, 20, 5, 0]);
      expect(new Set(seen).size).toBe(45);
      const expected = Array.from({ length: 45 }, (_, i) => 100 + i)
        .sort((a, b) => (type === 'Top' ? b % 7 - a % 7 || b - a : b - a))
        .map((n) => String(idOf(n)));
      expect(seen, type).toEqual(expected);
    }
  });

  it('a syntax error is a 422 naming the column, with the span in headers', async () => {
    const { search } = await setup();
    const cases = [
      { query: 'form:alice', column: '1', length: '5', words: "unknown operator 'form:' at column 1" },
      { query: 'cats OR', column: '6', length: '2', words: "'OR' at column 6 needs a term after it" },
      { query: 'fox since:2024-13-01', column: '11', length: '10', words: 'a real calendar date' },
      { query: '(fox', column: '1', length: '1', words: "missing ')'" },
    ];
    for (const c of cases) {
      const res = await search({ query: c.query });
      expect(res.status, c.query).toBe(422);
      expect(res.headers.get('content-type')).toBe(JSON_TYPE);
      const body = res.json() as { status: string; message: string };
      expect(Object.keys(body)).toEqual(['status', 'message']);
      expect(body.status).toBe('error');
      expect(body.message).toContain(c.words);
      expect(body.message.startsWith("Invalid parameter 'query': ")).toBe(true);
      expect(res.headers.get('skein-query-error-column'), c.query).toBe(c.column);
      expect(res.headers.get('skein-query-error-length'), c.query).toBe(c.length);
    }
  });

  it('refuses bad parameters with 422 naming them, and cursors of another search', async () => {
    const { get, search } = await setup(25);
    const bad = async (path: string, words: string) => {
      const res = await get(path);
      expect(res.status, path).toBe(422);
      expect((res.json() as { message: string }).message, path).toContain(words);
    };
    await bad('/social/search', "Missing required parameter 'query'");
    await bad('/social/search?query=', "Missing required parameter 'query'");
    await bad('/social/search?query=%20%20', "Missing required parameter 'query'");
    await bad('/social/search?query=a&query=b', "Invalid parameter 'query'");
    await bad(`/social/search?query=${'a'.repeat(1025)}`, "Invalid parameter 'query'");
    await bad('/social/search?query=fox&type=Popular', "Invalid parameter 'type'");
    await bad('/social/search?query=fox&type=latest', 'case matters');
    await bad('/social/search?query=fox&cursor=', "Invalid parameter 'cursor'");
    await bad('/social/search?query=fox&cursor=abc', "Invalid parameter 'cursor'");

    const first = (await search({ query: 'bulk' })).json() as Page;
    const c = first.next_cursor;
    await bad(`/social/search?query=bulk%20post&cursor=${c}`, 'another query');
    await bad(`/social/search?query=bulk&type=Top&cursor=${c}`, 'belongs to a Latest search');
    const flipped = c.slice(0, 10) + (c[10] === 'A' ? 'B' : 'A') + c.slice(11);
    await bad(`/social/search?query=bulk&cursor=${flipped}`, 'altered');
    // The untouched cursor still works after all that.
    expect((await search({ query: 'bulk', cursor: c })).status).toBe(200);
  });

  it('is metered like a timeline: one credit per tweet (at least 1), 402 below 20 credits, 401 without a key', async () => {
    const { engine, userId, search, get } = await setup();
    const spent = async (query: string) => {
      const before = balanceOf(engine.db, userId).available;
      expect((await search({ query })).status).toBe(200);
      return before - balanceOf(engine.db, userId).available;
    };
    expect(await spent('fox')).toBe(3);
    expect(await spent('nothingmatches')).toBe(1);
    const available = balanceOf(engine.db, userId).available;
    charge(engine.db, { transferId: 'test:drain', userId, amount: available - 19, nowMs: engine.clock.nowMs() });
    const poor = await search({ query: 'fox' });
    expect(poor.status).toBe(402);
    expect(balanceOf(engine.db, userId).available).toBe(19);
    expect((await get('/social/search?query=fox', '')).status).toBe(401);
  });

  it('every post of the corpus is findable by its own words', async () => {
    const { search } = await setup();
    for (const p of POSTS) {
      const word = p.text.split(' ').find((w) => /^[a-z]{4,}$/i.test(w))!;
      const page = (await search({ query: `"${word}"` })).json() as Page;
      expect(idsOf(page), word).toContain(String(idOf(p.n)));
    }
  });
});
