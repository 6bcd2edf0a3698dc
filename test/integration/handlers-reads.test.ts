import { describe, expect, it } from 'vitest';
import { createHandlers, type AppHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { balanceOf, charge } from '../../src/main/engine/ledger';
import type { Engine } from '../../src/main/engine/engine';
import { testEngine } from '../helpers/engine';

// The handler layer of the contract against the real engine on a real SQLite file: no mock.
function setup() {
  const engine = testEngine();
  const tour = seedCorpus(engine.db, { scale: 'small', seed: 7 });
  const app: AppHandlers = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
  return { engine, tour, app, h: app.handlers };
}

/** The app user's balance and the number of ledger transfers: what a charge would change. */
function books(engine: Engine) {
  const { n } = engine.db.prepare('SELECT COUNT(*) AS n FROM ledger_transfers').get() as { n: number };
  return { balance: balanceOf(engine.db, APP_USER_ID), transfers: n };
}

describe('handlers: reads', () => {
  it('summarises the corpus with a tour of linkable stops', async () => {
    const { h, tour } = setup();
    const s = await h['corpus.summary']();
    expect(s.posts).toBe(tour.posts);
    expect(s.users).toBe(tour.users);
    expect(s.replies).toBeGreaterThan(0);
    expect(s.first_post_ms).toBeLessThan(s.last_post_ms!);
    expect(s.tour.map((t) => t.kind)).toEqual(expect.arrayContaining(['article', 'space', 'user', 'post', 'conversation']));
    expect(s.tour.find((t) => t.kind === 'article')!.id).toBe(tour.article_post.id_str);
  });

  it('pages a timeline to its third page with distinct posts, newest first', async () => {
    const { h, tour } = setup();
    const user = await h['users.lookup']({ user: `@${tour.large_conversation_root.screen_name}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const p = await h['timeline.page']({ user_id: user.id_str, kind: 'tweets-and-replies', cursor });
      expect(p.tweets.length).toBeGreaterThan(0);
      seen.push(...p.tweets.map((t) => t.id_str));
      cursor = p.next_cursor;
      if (!cursor) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const sorted = [...seen].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1));
    expect(seen).toEqual(sorted);
  });

  it('keeps ids above 2^53 exact across the contract', async () => {
    const { h, tour } = setup();
    const id = tour.ids_above_2_53.post_id_str;
    expect(BigInt(id)).toBeGreaterThan(2n ** 53n);
    const d = await h['post.get']({ id });
    expect(d.tweet.id_str).toBe(id);
    expect(d.raw_json).toContain(`"id":${id},`);
    const user = await h['users.lookup']({ user: tour.ids_above_2_53.user_id_str });
    expect(user.id_str).toBe(tour.ids_above_2_53.user_id_str);
  });

  it('builds the reply tree of a conversation level by level', async () => {
    const { h, tour } = setup();
    const tree = await h['post.replies']({ id: tour.large_conversation_root.id_str });
    expect(tree.levels[0]!.depth).toBe(1);
    expect(tree.levels.length).toBeGreaterThanOrEqual(2);
    for (const reply of tree.levels[0]!.tweets) expect(reply.in_reply_to_status_id_str).toBe(tour.large_conversation_root.id_str);
    const level1 = new Set(tree.levels[0]!.tweets.map((t) => t.id_str));
    for (const reply of tree.levels[1]!.tweets) expect(level1.has(reply.in_reply_to_status_id_str!)).toBe(true);
  });

  it("shows every level of the big conversation and counts each level exactly, as the corpus holds it", async () => {
    const { h, engine, tour } = setup();
    const tree = await h['post.replies']({ id: tour.large_conversation_root.id_str });
    // Each level's public replies, counted by a recursive query of its own.
    const expected = engine.db
      .prepare(
        `WITH RECURSIVE below(id, depth) AS (
           SELECT id, 1 FROM posts WHERE in_reply_to_status_id = ?
           UNION ALL SELECT p.id, b.depth + 1 FROM posts p JOIN below b ON p.in_reply_to_status_id = b.id)
         SELECT b.depth, count(*) AS n FROM below b JOIN posts p ON p.id = b.id JOIN social_users u ON u.id = p.user_id
         WHERE u.protected = 0 GROUP BY b.depth ORDER BY b.depth`,
      )
      .safeIntegers(false)
      .all(BigInt(tour.large_conversation_root.id_str)) as { depth: number; n: number }[];
    expect(expected.length).toBeGreaterThan(6); // the demo's conversation is deeper than the old 6-level cut
    expect(tree.levels.map((l) => ({ depth: l.depth, n: l.total }))).toEqual(expected);
    for (const level of tree.levels) expect(level.tweets.length).toBe(Math.min(1_000, level.total));
    expect(tree.more_levels).toBe(false);
    expect(tree.truncated).toBe(tree.levels.some((l) => l.total > 1_000));
  });

  it('counts the posts a query matches: the rows its pages give, all of them', async () => {
    const { h, tour } = setup();
    for (const query of [`from:${tour.large_conversation_root.screen_name}`, 'lang:en -filter:replies', `conversation_id:${tour.large_conversation_root.id_str}`]) {
      let rows = 0;
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof h['search.page']>> = await h['search.page']({ query, cursor });
        rows += page.tweets.length;
        cursor = page.tweets.length ? page.next_cursor : null;
      } while (cursor);
      expect([query, await h['search.count']({ query })]).toEqual([query, { count: rows, capped: false, upstream: false }]);
      expect(rows).toBeGreaterThan(0);
    }
    await expect(h['search.count']({ query: 'cats form:x' })).rejects.toMatchObject({ code: 'invalid' });
  });

  it('reads an article with its content state and a space with its creator', async () => {
    const { h, tour } = setup();
    const a = await h['article.get']({ id: tour.article_post.id_str });
    expect(a.article.title).toBe(tour.article_post.title);
    expect(a.article.content_state.blocks.map((b) => b.type)).toEqual(expect.arrayContaining(['header-one', 'unordered-list-item', 'unstyled']));
    expect(a.tweet.tweet_created_at).toMatch(/\+00:00$/);
    const s = await h['space.get']({ id: tour.space.id });
    expect(s.space.state).toBe('Ended');
    expect(typeof s.space.ended_at).toBe('string');
    expect(s.space.creator.legacy.created_at).toMatch(/^\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/);
  });

  it('searches with the search language and reports a syntax error with its position', async () => {
    const { h, tour } = setup();
    const page = await h['search.page']({ query: `from:${tour.large_conversation_root.screen_name}` });
    expect(page.tweets.length).toBeGreaterThan(0);
    for (const t of page.tweets) expect(t.user.screen_name.toLowerCase()).toBe(tour.large_conversation_root.screen_name.toLowerCase());
    if (page.next_cursor) {
      const next = await h['search.page']({ query: `from:${tour.large_conversation_root.screen_name}`, cursor: page.next_cursor });
      expect(next.tweets.map((t) => t.id_str)).not.toContain(page.tweets[0]!.id_str);
    }
  });

  it('answers bad input and missing things with the catalogue code, never a crash', async () => {
    const { app, tour } = setup();
    const r1 = await dispatch(app.handlers, 'search.page', { query: 'cats form:x' });
    expect(r1).toMatchObject({ ok: false, error: { code: 'invalid', position: { column: 6 } } });
    expect(await dispatch(app.handlers, 'post.get', { id: 'abc' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch(app.handlers, 'post.get', { id: '1' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await dispatch(app.handlers, 'post.get', 'nonsense')).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch(app.handlers, 'nope', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await dispatch(app.handlers, 'timeline.page', { user_id: tour.protected_user.id_str, kind: 'tweets' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await dispatch(app.handlers, 'users.lookup', { user: '@no_such_user_here' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('opens the post with the big conversation again and again without charging or writing the ledger', async () => {
    const { h, engine, tour } = setup();
    const id = tour.large_conversation_root.id_str;
    const before = books(engine);
    for (let i = 0; i < 5; i++) {
      expect((await h['post.get']({ id })).tweet.id_str).toBe(id);
      const tree = await h['post.replies']({ id });
      expect(tree.levels.reduce((n, l) => n + l.tweets.length, 0)).toBeGreaterThan(100);
      // Free, but still bounded: at most 1,000 posts a level are sent whole.
      for (const level of tree.levels) expect(level.tweets.length).toBeLessThanOrEqual(1_000);
    }
    expect(books(engine)).toEqual(before);
  });

  it('serves more than 120 app reads within one minute of its clock', async () => {
    const { app, engine, tour } = setup();
    const user = tour.large_conversation_root.screen_name;
    const reads: [string, unknown][] = [
      ['post.get', { id: tour.quote_post.id_str }],
      ['post.replies', { id: tour.deep_reply.id_str }],
      ['users.lookup', { user }],
      ['search.page', { query: `from:${user}` }],
      ['article.get', { id: tour.article_post.id_str }],
    ];
    const start = engine.clock.nowMs();
    const before = books(engine);
    for (let i = 0; i < 150; i++) {
      const [name, args] = reads[i % reads.length]!;
      expect(await dispatch(app.handlers, name, args)).toMatchObject({ ok: true });
      engine.clock.advance(100);
    }
    // 150 reads in 15 seconds of the engine's clock: scripts would meet the limit of 120 a minute.
    expect(engine.clock.nowMs() - start).toBe(15_000);
    expect(books(engine)).toEqual(before);
  });

  it('reads everything when the app user has no credits left, and still charges nothing', async () => {
    const { app, engine, tour } = setup();
    charge(engine.db, { transferId: 'test:drain', userId: APP_USER_ID, amount: balanceOf(engine.db, APP_USER_ID).available, nowMs: 0 });
    expect(balanceOf(engine.db, APP_USER_ID).available).toBe(0);
    const before = books(engine);
    const user = await app.handlers['users.lookup']({ user: tour.large_conversation_root.screen_name });
    const reads: [string, unknown][] = [
      ['timeline.page', { user_id: user.id_str, kind: 'tweets-and-replies' }],
      ['post.get', { id: tour.large_conversation_root.id_str }],
      ['post.replies', { id: tour.large_conversation_root.id_str }],
      ['article.get', { id: tour.article_post.id_str }],
      ['space.get', { id: tour.space.id }],
      ['search.page', { query: `from:${user.screen_name}` }],
    ];
    for (const [name, args] of reads) expect(await dispatch(app.handlers, name, args)).toMatchObject({ ok: true });
    expect(books(engine)).toEqual(before);
  });
});
