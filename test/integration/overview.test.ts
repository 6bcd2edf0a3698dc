import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { searchPage } from '../../src/main/engine/search';
import type { Engine } from '../../src/main/engine/engine';
import type { Overview, OverviewCount } from '../../src/shared/contract';
import { testEngine } from '../helpers/engine';
import { writeProtectedPosts, writeSearchCorpus } from '../helpers/search-corpus';

// 'overview.get' against the real engine on a real SQLite file. The expected figures are computed
// here independently: every matching id paged out through the search, then each post's row and
// entity rows read one by one and counted in JavaScript.

function setup() {
  const engine = testEngine();
  const tour = seedCorpus(engine.db, { scale: 'small', seed: 3 });
  const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null });
  return { engine, tour, h: app.handlers };
}

function allMatches(engine: Engine, query: string): bigint[] {
  const ids: bigint[] = [];
  let cursor: string | null = null;
  do {
    const page = searchPage(engine.db, { query, cursor, limit: 1000 });
    ids.push(...page.ids);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return ids;
}

interface Row {
  user_id: bigint;
  created_at_us: number;
  in_reply_to_status_id: bigint | null;
  is_quote_status: number;
  quoted_status_id: bigint | null;
  lang: string;
  source: string;
}

function oracle(engine: Engine, ids: bigint[], top: number) {
  const post = engine.db.prepare('SELECT user_id, created_at_us, in_reply_to_status_id, is_quote_status, quoted_status_id, lang, source FROM posts WHERE id = ?').safeIntegers(true);
  const listOf = (table: string, column: string) => engine.db.prepare(`SELECT ${column} FROM ${table} WHERE post_id = ?`).pluck();
  const tags = listOf('post_hashtags', 'tag');
  const mentions = listOf('post_mentions', 'screen_name');
  const urls = listOf('post_urls', 'url');
  const counters = { hashtags: new Map<string, number>(), mentions: new Map<string, number>(), domains: new Map<string, number>(), languages: new Map<string, number>(), clients: new Map<string, number>() };
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const authors = new Set<bigint>();
  const days = new Map<string, number>();
  let replies = 0;
  let quotes = 0;
  for (const id of ids) {
    const r = post.get(id) as Row;
    authors.add(r.user_id);
    if (r.in_reply_to_status_id !== null) replies++;
    else if (Number(r.is_quote_status) === 1 || r.quoted_status_id !== null) quotes++;
    bump(counters.languages, r.lang);
    const client = /<a[^>]*>(.*)<\/a>/.exec(r.source)?.[1] ?? r.source;
    if (client) bump(counters.clients, client);
    bump(days, new Date(Number(r.created_at_us) / 1000).toISOString().slice(0, 10));
    for (const t of tags.all(id) as string[]) bump(counters.hashtags, t);
    for (const m of mentions.all(id) as string[]) bump(counters.mentions, m);
    const hosts = new Set((urls.all(id) as string[]).map((u) => new URL(u).hostname.replace(/^www\./, '')));
    for (const host of hosts) bump(counters.domains, host);
  }
  const topOf = (m: Map<string, number>): OverviewCount[] =>
    [...m].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, top);
  return {
    posts: ids.length,
    replies,
    quotes,
    unique_authors: authors.size,
    days,
    hashtags: topOf(counters.hashtags),
    mentions: topOf(counters.mentions),
    domains: topOf(counters.domains),
    languages: topOf(counters.languages),
    clients: topOf(counters.clients),
  };
}

function expectMatches(o: Overview, want: ReturnType<typeof oracle>) {
  expect(o.posts).toBe(want.posts);
  expect(o.replies).toBe(want.replies);
  expect(o.quotes).toBe(want.quotes);
  expect(o.unique_authors).toBe(want.unique_authors);
  expect(o.reply_share).toBeCloseTo(want.replies / want.posts, 12);
  expect(o.quote_share).toBeCloseTo(want.quotes / want.posts, 12);
  for (const k of ['hashtags', 'mentions', 'domains', 'languages', 'clients'] as const) expect(o[k], k).toEqual(want[k]);
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  expect(sum(o.series.posts) + sum(o.series.replies) + sum(o.series.quotes)).toBe(want.posts);
}

describe('overview.get', () => {
  it('counts a query\'s matches as the rows themselves say, by day in UTC over the 30-day corpus', async () => {
    const { engine, h } = setup();
    for (const query of ['lang:en', 'the OR data', '-filter:replies']) {
      const ids = allMatches(engine, query);
      expect(ids.length).toBeGreaterThan(100);
      const o = await h['overview.get']({ query, top: 15 });
      const want = oracle(engine, ids, 15);
      expectMatches(o, want);
      expect(o.scope).toEqual({ query });
      expect(o.bucket).toBe('day'); // the small corpus spans 30 days
      expect(o.bucket_requested).toBeNull();
      // Each day's bar is that UTC date's posts.
      o.series.start_ms.forEach((start, i) => {
        const day = new Date(start).toISOString();
        expect(day.slice(11)).toBe('00:00:00.000Z');
        expect(o.series.posts[i]! + o.series.replies[i]! + o.series.quotes[i]!).toBe(want.days.get(day.slice(0, 10)) ?? 0);
      });
    }
  });

  it('counts exactly over every plan of the search: filter indexes, narrowed lists, UNION arms, url lists', async () => {
    const { engine, h } = setup();
    // lang:es drives from posts_lang, min_faves:10 filter:quote from a narrowed list, the OR from
    // two arms (a hashtag and the self-threads list), url: from post_urls (search/sources.ts).
    for (const query of ['lang:es filter:links', 'min_faves:10 filter:quote', '#opendata OR filter:self_threads', 'url:promo', 'lang:es -filter:replies min_faves:10']) {
      const ids = allMatches(engine, query);
      expect(ids.length, query).toBeGreaterThan(5);
      const o = await h['overview.get']({ query, top: 15 });
      expectMatches(o, oracle(engine, ids, 15));
    }
  });

  it("counts a user's posts, and follows a UTC offset and a chosen bucket", async () => {
    const { engine, h } = setup();
    const userId = engine.db.prepare('SELECT user_id FROM posts GROUP BY user_id ORDER BY count(*) DESC LIMIT 1').safeIntegers(true).pluck().get() as bigint;
    const ids = (engine.db.prepare('SELECT id FROM posts WHERE user_id = ?').safeIntegers(true).pluck().all(userId) as bigint[]);
    const o = await h['overview.get']({ user_id: userId.toString(), bucket: 'hour', utc_offset_minutes: 120 });
    expectMatches(o, oracle(engine, ids, 10));
    expect(o.scope).toEqual({ user_id: userId.toString() });
    expect(o.bucket).toBe('hour');
    expect(o.utc_offset_minutes).toBe(120);
    // Hourly buckets start on the hour; a UTC+2 day starts at 22:00 UTC.
    expect(o.series.start_ms.every((s) => s % 3_600_000 === 0)).toBe(true);
    const days = await h['overview.get']({ user_id: userId.toString(), bucket: 'day', utc_offset_minutes: 120 });
    expect(new Date(days.series.start_ms[0]!).toISOString().slice(11)).toBe('22:00:00.000Z');
    const local = new Map<string, number>();
    for (const id of ids) {
      const us = engine.db.prepare('SELECT created_at_us FROM posts WHERE id = ?').pluck().get(id) as number;
      const key = new Date(us / 1000 + 120 * 60_000).toISOString().slice(0, 10);
      local.set(key, (local.get(key) ?? 0) + 1);
    }
    days.series.start_ms.forEach((start, i) => {
      const key = new Date(start + 120 * 60_000).toISOString().slice(0, 10);
      expect(days.series.posts[i]! + days.series.replies[i]! + days.series.quotes[i]!).toBe(local.get(key) ?? 0);
    });
    const weeks = await h['overview.get']({ user_id: userId.toString(), bucket: 'week' });
    expect(weeks.series.start_ms.every((s) => new Date(s).getUTCDay() === 1)).toBe(true); // Mondays
    const months = await h['overview.get']({ user_id: userId.toString(), bucket: 'month' });
    expect(months.series.start_ms.every((s) => new Date(s).getUTCDate() === 1)).toBe(true);
  });

  it('leaves protected accounts out of a query, reads hosts from URLs, and answers an empty set', async () => {
    const engine = testEngine();
    writeSearchCorpus(engine.db);
    writeProtectedPosts(engine.db);
    const h = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null }).handlers;
    const o = await h['overview.get']({ query: 'fox OR foxes OR bears OR stocks OR $aapl' });
    expectMatches(o, oracle(engine, allMatches(engine, 'fox OR foxes OR bears OR stocks OR $aapl'), 10));
    const all = await h['overview.get']({ query: 'since:2020-01-01' });
    expect(all.posts).toBe(11); // p1..p9 and the public replies p22 (bob) and p24 (alice); none of eve's
    expect(all.domains).toEqual([{ value: 'example.com', count: 1 }, { value: 'other.org', count: 1 }]);
    expect(all.bucket).toBe('day');
    const none = await h['overview.get']({ query: 'from:nobody_here' });
    expect(none).toMatchObject({ posts: 0, unique_authors: 0, reply_share: 0, first_post_ms: null, series: { start_ms: [] }, hashtags: [] });
  });

  it('refuses bad arguments with a clear invalid error', async () => {
    const { h } = setup();
    const bad = async (args: unknown, message: RegExp) => {
      await expect((h['overview.get'] as (a: unknown) => Promise<unknown>)(args)).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(message) });
    };
    await bad({}, /exactly one of query, user_id and job_id/);
    await bad({ query: 'x', user_id: '1' }, /exactly one of query, user_id and job_id/);
    await bad({ query: 'x', bucket: 'year' }, /'bucket'.*hour, day, week, month/);
    await bad({ query: 'x', utc_offset_minutes: 900 }, /'utc_offset_minutes'/);
    await bad({ query: 'x', top: 0 }, /'top'/);
    await bad({ user_id: 'abc' }, /'user_id'/);
    await bad({ query: 'form:x' }, /unknown operator/);
  });
});
