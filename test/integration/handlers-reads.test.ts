import { describe, expect, it } from 'vitest';
import { createHandlers, type AppHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { APP_USER_ID } from '../../src/main/engine/handlers/meter';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { balanceOf } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';

// The handler layer of the contract against the real engine on a real SQLite file: no mock.
function setup() {
  const engine = testEngine();
  const tour = seedCorpus(engine.db, { scale: 'small', seed: 7 });
  const app: AppHandlers = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
  return { engine, tour, app, h: app.handlers };
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

  it('pages a timeline to its third page with distinct posts, newest first, and meters the app user', async () => {
    const { h, engine, tour } = setup();
    const user = await h['users.lookup']({ user: `@${tour.large_conversation_root.screen_name}` });
    const before = balanceOf(engine.db, APP_USER_ID).posted;
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
    // One credit per post plus one for the lookup: metered like any API user.
    expect(before - balanceOf(engine.db, APP_USER_ID).posted).toBe(seen.length);
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

  it('refuses a read with 402 when the app user has no credits left, and charges nothing', async () => {
    const { app, engine, tour } = setup();
    const user = await app.handlers['users.lookup']({ user: tour.large_conversation_root.screen_name });
    const available = balanceOf(engine.db, APP_USER_ID).available;
    // Spend everything but 5: a timeline page may cost 20, so it is refused before any work.
    const { charge } = await import('../../src/main/engine/ledger');
    charge(engine.db, { transferId: 'test:drain', userId: APP_USER_ID, amount: available - 5, nowMs: 0 });
    const r = await dispatch(app.handlers, 'timeline.page', { user_id: user.id_str, kind: 'tweets' });
    expect(r).toMatchObject({ ok: false, error: { code: 'payment_required' } });
    expect(balanceOf(engine.db, APP_USER_ID).available).toBe(5);
  });
});
