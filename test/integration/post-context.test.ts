import { afterEach, describe, expect, it } from 'vitest';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { createHandlers, type AppHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { MAX_ANCESTORS } from '../../src/main/engine/reads/thread-context';
import { socialUser, tweetJson } from '../fixtures/api-corpus';
import { testEngine } from '../helpers/engine';

// The post page's context (issue 15 "Threads and context"), from a real SQLite corpus written
// through the importers' write path: ancestors up to the root, the author's self-thread, the
// quoted post, the count of stored quotes, and the corpus's gaps named by id.

const NO_KEYCHAIN = { available: false, message: 'No OS keychain is available (test).' };
const ada = socialUser('1000000000000000001', { screen_name: 'ada' });
const bob = socialUser('1000000000000000002', { screen_name: 'bob' });
const hidden = socialUser('1000000000000000003', { screen_name: 'hidden', protected: true });
const id = (n: number) => String(1900000000000000000n + BigInt(n));

let app: AppHandlers | null = null;
afterEach(() => app?.close());

function corpus(write: (post: (n: number, user: Record<string, unknown>, extra?: Record<string, unknown>) => void) => void) {
  const engine = testEngine();
  const post = (n: number, user: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    upsertTweet(engine.db, tweetJson(id(n), user, { tweet_created_at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000000Z`, ...extra }), { retrievedAtMs: 0 });
  write(post);
  app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null, keychain: () => NO_KEYCHAIN });
  return app.handlers;
}

const replyTo = (n: number, user: Record<string, unknown>) => ({ in_reply_to_status_id_str: id(n), in_reply_to_user_id_str: user.id_str, in_reply_to_screen_name: user.screen_name });
const ids = (tweets: { id_str: string }[]) => tweets.map((t) => t.id_str);

describe('post.context: a post in its conversation', () => {
  it('gives the ancestors root first, the self-thread around the post, the quoted post and the stored quotes', async () => {
    const h = corpus((post) => {
      post(1, ada); // the root
      post(2, bob, replyTo(1, ada));
      post(3, ada, replyTo(2, bob)); // ada's thread starts here
      post(4, ada, replyTo(3, ada));
      post(5, ada, replyTo(4, ada));
      post(6, bob, replyTo(5, ada)); // someone else's reply ends nothing, it is not part of it
      post(7, ada, replyTo(4, ada)); // a later second reply to 4 by ada: the thread takes the earliest
      post(8, bob, { quoted_status_id_str: id(4), is_quote_status: true });
      post(9, bob, { quoted_status_id_str: id(4), is_quote_status: true });
    });
    const c = await h['post.context']({ id: id(4) });
    expect(ids(c.ancestors)).toEqual([id(1), id(2), id(3)]);
    expect(c).toMatchObject({ ancestors_truncated: false, missing_parent_id: null, quoted: null, quoted_missing_id: null, quotes_in_corpus: 2 });
    expect(ids(c.thread)).toEqual([id(3), id(4), id(5)]);
    expect(c.ancestors[0]!.user.screen_name).toBe('ada');

    const quoting = await h['post.context']({ id: id(8) });
    expect(quoting.quoted?.id_str).toBe(id(4));
    expect(quoting.thread).toEqual([]);
    expect((await h['post.context']({ id: id(1) })).ancestors).toEqual([]);
  });

  it("names the parent or quoted post the corpus lacks, or holds only from a protected account, by id", async () => {
    const h = corpus((post) => {
      post(10, hidden);
      post(11, bob, replyTo(10, hidden)); // its parent is a protected account's
      post(12, bob, replyTo(99, ada)); // its parent was never stored
      post(13, bob, { quoted_status_id_str: id(98), is_quote_status: true });
    });
    expect(await h['post.context']({ id: id(11) })).toMatchObject({ ancestors: [], missing_parent_id: id(10) });
    expect(await h['post.context']({ id: id(12) })).toMatchObject({ ancestors: [], missing_parent_id: id(99) });
    expect(await h['post.context']({ id: id(13) })).toMatchObject({ quoted: null, quoted_missing_id: id(98) });
  });

  it(`walks at most ${MAX_ANCESTORS} posts up, says there are more, and survives a reply cycle in imported data`, async () => {
    const depth = MAX_ANCESTORS + 5;
    const h = corpus((post) => {
      post(100, ada);
      for (let n = 101; n <= 100 + depth; n++) post(n, n % 2 ? bob : ada, replyTo(n - 1, ada));
      post(500, ada, replyTo(501, bob)); // 500 and 501 reply to each other
      post(501, bob, replyTo(500, ada));
    });
    const deep = await h['post.context']({ id: id(100 + depth) });
    expect(deep.ancestors).toHaveLength(MAX_ANCESTORS);
    expect(deep.ancestors_truncated).toBe(true);
    expect(deep.ancestors.at(-1)!.id_str).toBe(id(100 + depth - 1)); // the nearest are kept
    const cycle = await h['post.context']({ id: id(500) });
    expect(ids(cycle.ancestors)).toEqual([id(501)]);
  });

  it('refuses a bad id with a 422 and an unknown post with a 404', async () => {
    const h = corpus((post) => post(1, ada));
    expect(await dispatch(h, 'post.context', { id: 'abc' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch(h, 'post.context', { id: id(77) })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await dispatch(h, 'post.context', { id: id(10) })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
