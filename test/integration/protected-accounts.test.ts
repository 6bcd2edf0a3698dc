import { afterEach, describe, expect, it } from 'vitest';
import { upsertArticleDetails } from '../../src/main/engine/corpus/write';
import { balanceOf } from '../../src/main/engine/ledger';
import { createHandlers, type AppHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { idOf, PROTECTED_POSTS, tweetOf, writeProtectedPosts, writeSearchCorpus } from '../helpers/search-corpus';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';

// Protected accounts (issue 12, part 7): the platform's search does not return their posts, so
// neither do Skein's search pages (HTTP and the app), search jobs, reply jobs nor the reply tree;
// their post and article details are 404 saying why (docs/decisions.md "Search: protected accounts").
// Eve is protected: p20, p21 (a reply to p1) and p23 are hers; p22 and p24 are public replies to
// her posts (test/helpers/search-corpus.ts). Real HTTP, real store, real job runner (inline).

const apps: AppHandlers[] = [];
afterEach(() => {
  while (apps.length) apps.pop()!.close();
});

async function setup() {
  const engine = testEngine();
  writeSearchCorpus(engine.db);
  writeProtectedPosts(engine.db);
  const key = apiKey(engine);
  const server = await startServer(engine);
  const runner = testRunner(engine, { mode: 'inline', batchRows: 2 });
  const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => server.url });
  apps.push(app);
  return { engine, key, server, runner, app };
}

type Page = { next_cursor: string; tweets: { id_str: string }[] };
const ids = (...n: number[]) => n.map((k) => String(idOf(k)));
const eve = PROTECTED_POSTS.filter((p) => p.by === 'eve').map((p) => String(idOf(p.n)));

describe('search leaves protected accounts out', () => {
  it('GET /social/search: from:<protected> is empty, and no other query shows her posts', async () => {
    const { server, key } = await setup();
    const search = async (query: string, type = 'Latest') => {
      const res = await server.request(`/social/search?${new URLSearchParams({ query, type })}`, { key });
      expect(res.status, query).toBe(200);
      return (res.json() as Page).tweets.map((t) => t.id_str);
    };
    expect(await search('from:eve')).toEqual([]);
    expect(await search('from:eve', 'Top')).toEqual([]);
    expect(await search('fox')).toEqual(ids(24, 22, 9, 8, 1));
    expect(await search('brown', 'Top')).toEqual(ids(9, 1, 24, 3));
    expect(await search(`quoted_tweet_id:${idOf(5)}`)).toEqual(ids(6));
    // Public replies to her posts stay: they are public.
    expect(await search('to:eve')).toEqual(ids(24, 22));
  });

  it('the app\'s search page: from:<protected> is empty', async () => {
    const { app } = await setup();
    expect((await app.handlers['search.page']({ query: 'from:eve' })).tweets).toEqual([]);
    const page = await app.handlers['search.page']({ query: '#foxes OR private', type: 'Top' });
    expect(page.tweets.map((t) => t.id_str)).toEqual(ids(8, 1));
  });

  it('a search job collects none of her posts', async () => {
    const { server, key, runner } = await setup();
    const run = async (query: string) => {
      const res = await server.request(`/social/search/asyncJob?${new URLSearchParams({ query, max_count: '50' })}`, { method: 'POST', key });
      expect(res.status, res.text).toBe(200);
      await runner.idle();
      const status = (await server.request(`/jobs/${(res.json() as { job_id: number }).job_id}`, { key })).json() as { status: string; result: { datafile_url: string; rows: number } };
      expect(status.status).toBe('success');
      return ((await (await fetch(status.result.datafile_url)).json()) as { id_str: string }[]).map((r) => r.id_str);
    };
    expect(await run('from:eve')).toEqual([]);
    const all = await run('fox OR private OR $aapl OR #foxes');
    expect(all).toEqual(ids(24, 22, 9, 8, 5, 1));
    for (const id of eve) expect(all).not.toContain(id);
  });
});

describe('reply collection leaves protected repliers out', () => {
  it('a reply job on p1: her reply goes, bob\'s public answer to it stays (depth 2)', async () => {
    const { server, key, runner } = await setup();
    const res = await server.request(`/social/tweets/${idOf(1)}/comments/asyncJob`, { method: 'POST', key });
    await runner.idle();
    const status = (await server.request(`/jobs/${(res.json() as { job_id: number }).job_id}`, { key })).json() as { progress: number; progress_total: number; result: { datafile_url: string } };
    const got = ((await (await fetch(status.result.datafile_url)).json()) as { id_str: string }[]).map((r) => r.id_str);
    expect(got).toEqual(ids(22, 7, 3, 2));
    expect(status).toMatchObject({ progress: 4, progress_total: 4 });
  });

  it('the app\'s reply tree shows the same levels', async () => {
    const { app } = await setup();
    const tree = await app.handlers['post.replies']({ id: String(idOf(1)) });
    expect(tree.levels.map((l) => [l.depth, l.tweets.map((t) => t.id_str)])).toEqual([
      [1, ids(7, 2)],
      [2, ids(22, 3)],
      [3, ids(4)],
    ]);
  });
});

describe('details of a protected account\'s post', () => {
  it('are 404 over HTTP (both forms, and article details), saying why; free; a public reply to it is served', async () => {
    const { engine, server, key } = await setup();
    const article = { ...tweetOf({ n: 30, by: 'eve', day: '2024-01-11T00:00:00', text: 'A private article' }), created_at: '2024-01-11T00:00:00+00:00' };
    upsertArticleDetails(engine.db, {
      ...article,
      tweet_created_at: '2024-01-11T00:00:00+00:00',
      entities: { user_mentions: [], urls: [], hashtags: [], symbols: [], timestamps: [] },
      user_id: '9000000000000000005',
      user_screen_name: 'eve',
      article: { published_at: '2024-01-11T00:00:00+00:00', id_str: '1800000000000777000', title: 'Private', preview_text: '', cover_url: 'https://example.com/c.jpg', content_state: { blocks: [], entityMap: [] }, media_entities: [] },
    }, { retrievedAtMs: 1 });
    const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'tester'`).get() as { id: number }).id;
    const before = balanceOf(engine.db, userId).posted;
    for (const path of [`/social/tweets/${idOf(20)}`, `/social/statuses/show?id=${idOf(21)}`, `/social/article/${idOf(30)}`]) {
      const res = await server.request(path, { key });
      expect(res.status, path).toBe(404);
      const id = /(\d{19})/.exec(path)![1];
      expect(res.json(), path).toEqual({
        status: 'error',
        message: `Tweet ${id} was not found: its author's account is protected, and a protected account's posts are not public.`,
      });
    }
    expect(balanceOf(engine.db, userId).posted).toBe(before);
    const reply = await server.request(`/social/tweets/${idOf(22)}`, { key });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain(`"in_reply_to_status_id":${idOf(21)},`);
  });

  it('are not_found in the app, with the same words', async () => {
    const { app } = await setup();
    const r = await dispatch(app.handlers, 'post.get', { id: String(idOf(23)) });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.stringify(r)).toContain('its author\'s account is protected');
  });
});
