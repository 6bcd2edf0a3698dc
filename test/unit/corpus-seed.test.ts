import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateCorpus, loadDemoOnFirstStart, seedCorpus, type SeedSink } from '../../src/main/engine/corpus/seed';
import { getCorpusSummary, getTour } from '../../src/main/engine/corpus/summary';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import type { Db } from '../../src/main/engine/store/db';
import { testEngine } from '../helpers/engine';

const TWO_53 = 2n ** 53n;
type Obj = Record<string, unknown>;

function collect(seed: number) {
  const out = { users: [] as Obj[], tweets: [] as Obj[], articles: [] as Obj[], spaces: [] as Obj[] };
  const sink: SeedSink = { user: (u) => out.users.push(u), tweet: (t) => out.tweets.push(t), article: (a) => out.articles.push(a), space: (s) => out.spaces.push(s) };
  const tour = generateCorpus({ scale: 'small', seed }, sink);
  return { ...out, tour };
}

const digest = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const rows = (db: Db, sql: string, ...p: unknown[]) => db.prepare(sql).safeIntegers(true).all(...p) as Obj[];

describe('seed generator', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = collect(7);
    const b = collect(7);
    const c = collect(8);
    expect(digest(a)).toBe(digest(b));
    expect(digest(a.tweets)).not.toBe(digest(c.tweets));
  });

  it('writes entity indices that point at the right code points', () => {
    const { tweets, articles } = collect(3);
    let checked = 0;
    for (const t of [...tweets, ...articles]) {
      const cps = [...(t.full_text as string)];
      const e = t.entities as Record<string, { indices: [number, number]; text?: string; screen_name?: string; url?: string }[]>;
      const at = (x: { indices: [number, number] }) => cps.slice(x.indices[0], x.indices[1]).join('');
      for (const h of e.hashtags!) expect(at(h)).toBe(`#${h.text}`);
      for (const s of e.symbols!) expect(at(s)).toBe(`$${s.text}`);
      for (const m of e.user_mentions!) expect(at(m)).toBe(`@${m.screen_name}`);
      for (const u of e.urls!) expect(at(u)).toBe(u.url);
      checked += e.hashtags!.length + e.user_mentions!.length;
    }
    expect(checked).toBeGreaterThan(500);
    // Some text has astral emoji before an entity, where code points and UTF-16 units differ.
    expect(tweets.some((t) => /[\u{1F300}-\u{1FAFF}].*[#@$]/u.test(t.full_text as string))).toBe(true);
  });

  it('makes snowflake ids that grow with time, above 2^53, and a few short early user ids', () => {
    const { tweets, users } = collect(1);
    let last = 0n;
    let lastTime = '';
    for (const t of tweets) {
      const id = BigInt(t.id_str as string);
      expect(id > last).toBe(true);
      expect(id > TWO_53).toBe(true);
      expect((t.tweet_created_at as string) >= lastTime).toBe(true);
      last = id;
      lastTime = t.tweet_created_at as string;
    }
    expect(users.some((u) => BigInt(u.id_str as string) > TWO_53)).toBe(true);
    expect(users.some((u) => BigInt(u.id_str as string) < 100_000_000n)).toBe(true);
  });
});

describe('seeded corpus in the store', () => {
  it('holds every kind of record the issue lists', () => {
    const { db } = testEngine();
    const tour = seedCorpus(db, { scale: 'small', seed: 1 });
    const s = getCorpusSummary(db);
    expect(s).toMatchObject({ users: 40, posts: 2000, articles: 3, spaces: 3 });
    expect(s.replies).toBeGreaterThan(500);

    expect(rows(db, 'SELECT protected FROM social_users WHERE id = ?', BigInt(tour.protected_user.id_str))).toEqual([{ protected: 1n }]);
    // Conversations with direct, second-level and deeper replies under the large root.
    const depths = rows(db, 'SELECT reply_depth AS d, count(*) AS n FROM posts WHERE conversation_id = ? GROUP BY 1 ORDER BY 1', BigInt(tour.large_conversation_root.id_str));
    expect(depths.map((r) => r.d).slice(0, 4)).toEqual([0n, 1n, 2n, 3n]);
    const root = rows(db, 'SELECT reply_count FROM posts WHERE id = ?', BigInt(tour.large_conversation_root.id_str))[0]!;
    const direct = depths.find((r) => r.d === 1n)!.n as bigint;
    expect(root.reply_count as bigint).toBeGreaterThan(direct);
    expect(rows(db, 'SELECT is_quote_status, quoted_status_id FROM posts WHERE id = ?', BigInt(tour.quote_post.id_str)))
      .toEqual([{ is_quote_status: 1n, quoted_status_id: BigInt(tour.quote_post.quoted_id_str) }]);
    expect(rows(db, 'SELECT full_text FROM posts WHERE id = ?', BigInt(tour.wallet_reply.id_str))[0]!.full_text).toMatch(/[A-Za-z0-9]{25,}/);
    // Self-thread: replies by the same author to their own posts.
    expect(rows(db, `SELECT count(*) AS n FROM posts c JOIN posts p ON p.id = c.in_reply_to_status_id WHERE c.user_id = p.user_id`)[0]!.n as bigint).toBeGreaterThan(0n);

    const article = rows(db, 'SELECT content_state_json FROM articles WHERE post_id = ?', BigInt(tour.article_post.id_str))[0]!;
    const blocks = JSON.parse(article.content_state_json as string).blocks as { type: string; inlineStyleRanges: { style: string }[] }[];
    expect(new Set(blocks.map((b) => b.type))).toEqual(new Set(['header-one', 'unstyled', 'unordered-list-item']));
    expect(new Set(blocks.flatMap((b) => b.inlineStyleRanges.map((r) => r.style)))).toEqual(new Set(['Bold', 'Italic']));

    const space = rows(db, 'SELECT state, ended_at_ms, creator_json FROM spaces WHERE id = ?', tour.space.id)[0]!;
    expect(space.state).toBe('Ended');
    expect(space.ended_at_ms).not.toBeNull();
    const creator = JSON.parse(space.creator_json as string);
    expect(creator.legacy.screen_name).toBe(tour.space.creator_screen_name);
    expect(creator.affiliates_highlighted_label.label.userLabelType).toBe('BusinessLabel');
    expect(BigInt(tour.ids_above_2_53.post_id_str) > TWO_53 && BigInt(tour.ids_above_2_53.user_id_str) > TWO_53).toBe(true);
    expect(getTour(db)).toEqual(tour);

    // Full text is in step with the posts (bulk writing swaps the FTS trigger and must put it back).
    const fts = db.prepare("SELECT count(*) FROM posts_fts WHERE posts_fts MATCH 'herons'").pluck().get();
    expect(fts).toBe(db.prepare("SELECT count(*) FROM posts WHERE full_text LIKE '%herons%'").pluck().get());
    expect(fts).toBeGreaterThan(0);
    expect(() => db.exec("INSERT INTO posts_fts (posts_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'posts_fts_insert'").pluck().get()).toBe(1);
  });

  it('counts each reply and quote once, also when the same seed is written twice', () => {
    const { db } = testEngine();
    seedCorpus(db, { scale: 'small', seed: 2 });
    const counters = () => db.prepare('SELECT sum(reply_count) || \'/\' || sum(quote_count) FROM posts').pluck().get();
    const first = counters();
    // No post shows fewer replies or quotes than the corpus holds; only roots may show more (hidden ones).
    expect(db.prepare(`SELECT count(*) FROM posts p WHERE reply_count < (SELECT count(*) FROM posts c WHERE c.in_reply_to_status_id = p.id)
      OR quote_count <> (SELECT count(*) FROM posts q WHERE q.quoted_status_id = p.id)`).pluck().get()).toBe(0);
    seedCorpus(db, { scale: 'small', seed: 2 });
    expect(counters()).toBe(first);
    expect(getCorpusSummary(db).posts).toBe(2000);
  });

  it('loadDemoOnFirstStart loads the demo corpus once and never touches a corpus that has users', () => {
    const first = testEngine();
    upsertTweet(first.db, {
      tweet_created_at: '2026-01-01T00:00:00.000000Z', id_str: '1900000000000000001', full_text: 'mine',
      user: { id_str: '5', screen_name: 'analyst' },
    }, { retrievedAtMs: 1 });
    expect(loadDemoOnFirstStart(first.db, { wanted: true })).toEqual({ seeded: false, tour: null });
    expect(getCorpusSummary(first.db).posts).toBe(1);

    const fresh = testEngine();
    const result = loadDemoOnFirstStart(fresh.db, { wanted: true });
    expect(result.seeded).toBe(true);
    expect(getCorpusSummary(fresh.db)).toMatchObject({ users: 200, posts: 20000, articles: 12, spaces: 8 });
    expect(loadDemoOnFirstStart(fresh.db, { wanted: true })).toEqual({ seeded: false, tour: result.tour });
  }, 120_000);
});
