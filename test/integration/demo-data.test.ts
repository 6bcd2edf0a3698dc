import { describe, expect, it } from 'vitest';
import {
  CORPUS_END_MS, demoState, loadDemoOnFirstStart, removableSeeds, removeSeededData, seedCorpus, seedsOf, type Tour,
} from '../../src/main/engine/corpus/seed';
import { recordSeed, setDemoState } from '../../src/main/engine/corpus/seed/record';
import { getCorpusSummary, getTour } from '../../src/main/engine/corpus/summary';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { corpusSummary } from '../../src/main/engine/handlers/corpus';
import { parseRepliesJob } from '../../src/main/engine/jobs';
import { cancelJob } from '../../src/main/engine/jobs/queue/cancel';
import { createJob } from '../../src/main/engine/jobs/queue/create';
import { createKey } from '../../src/main/engine/keys';
import type { Db } from '../../src/main/engine/store/db';
import { setUpstreamConfig } from '../../src/main/engine/upstream';
import { testEngine } from '../helpers/engine';

// The demo corpus only at a data dir's first start, and taken out again on request: generated
// records go, what was imported or fetched since stays (a newer copy of a demo id included), and
// the corpus's derived data (entity rows, the full-text index, articles) goes with its posts.

const LATER_MS = CORPUS_END_MS + 86_400_000;

/** A post of the analyst's own, from an import: an id and an account the demo does not have. */
function importOwnPost(db: Db) {
  upsertTweet(db, {
    tweet_created_at: '2026-11-20T09:00:00.000000Z', id_str: '1991000000000000001', full_text: 'council minutes #opendata from the archive',
    user: { id_str: '77', screen_name: 'analyst', name: 'An Analyst' },
    entities: { hashtags: [{ text: 'opendata', indices: [20, 29] }], user_mentions: [], urls: [], symbols: [] },
  }, { retrievedAtMs: LATER_MS });
}

const count = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;

describe('the demo corpus at a data dir\'s first start', () => {
  it('loads once, records it, and a later start loads nothing', () => {
    const e = testEngine();
    const first = loadDemoOnFirstStart(e.db, { wanted: true });
    expect(first.seeded).toBe(true);
    expect(demoState(e.db)).toBe('loaded');
    expect(getCorpusSummary(e.db)).toMatchObject({ users: 200, posts: 20_000, articles: 12, spaces: 8 });
    expect(loadDemoOnFirstStart(e.db, { wanted: true })).toEqual({ seeded: false, tour: first.tour });
  }, 60_000);

  it('declined at the first start (--no-demo) stays declined: a later plain start on the empty corpus loads nothing', () => {
    const e = testEngine();
    expect(loadDemoOnFirstStart(e.db, { wanted: false }).seeded).toBe(false);
    expect(demoState(e.db)).toBe('declined');
    expect(loadDemoOnFirstStart(e.db, { wanted: true }).seeded).toBe(false);
    expect(getCorpusSummary(e.db).posts).toBe(0);
  });

  it('is declined for a data dir set up as a gateway before its first start, or one that holds records', () => {
    const gateway = testEngine();
    setUpstreamConfig(gateway.db, { url: 'https://api.socialdata.tools', profile: 'socialdata' }, gateway.clock.nowMs());
    expect(loadDemoOnFirstStart(gateway.db, { wanted: true }).seeded).toBe(false);
    expect([demoState(gateway.db), getCorpusSummary(gateway.db).posts]).toEqual(['declined', 0]);

    const imported = testEngine();
    importOwnPost(imported.db);
    expect(loadDemoOnFirstStart(imported.db, { wanted: true }).seeded).toBe(false);
    expect([demoState(imported.db), getCorpusSummary(imported.db).posts]).toEqual(['declined', 1]);
  });

  it('counts the demo of a data dir from before the record as loaded, and completes a demo a start left half-written', () => {
    const legacy = testEngine();
    seedCorpus(legacy.db, { scale: 'small', seed: 1 });
    // A start before the list of seeds kept its one seed under `seed`.
    legacy.db.prepare("DELETE FROM corpus_meta WHERE key = 'seeds'").run();
    legacy.db.prepare("INSERT INTO corpus_meta (key, value) VALUES ('seed', '{\"scale\":\"demo\",\"seed\":1}')").run();
    expect(seedsOf(legacy.db)).toEqual([{ scale: 'demo', seed: 1 }]);
    expect(loadDemoOnFirstStart(legacy.db, { wanted: true }).seeded).toBe(false);
    expect(demoState(legacy.db)).toBe('loaded');

    const halfway = testEngine();
    setDemoState(halfway.db, 'loading');
    expect(loadDemoOnFirstStart(halfway.db, { wanted: false }).seeded).toBe(false);
    expect(loadDemoOnFirstStart(halfway.db, { wanted: true }).seeded).toBe(true);
    expect([demoState(halfway.db), getCorpusSummary(halfway.db).posts]).toEqual(['loaded', 20_000]);
  }, 60_000);
});

describe('removing the demo data', () => {
  it('removes every generated record with its entities, articles and full-text rows, and keeps what was imported or fetched since', async () => {
    const e = testEngine();
    const tour = loadDemoOnFirstStart(e.db, { wanted: true }).tour as Tour;
    importOwnPost(e.db);
    // A demo id fetched since (its newer copy replaced the demo's): it stays, and so does its author.
    const refreshed = tour.quote_post.id_str;
    const author = e.db.prepare('SELECT user_id FROM posts WHERE id = ?').safeIntegers(true).pluck().get(BigInt(refreshed)) as bigint;
    upsertTweet(e.db, {
      tweet_created_at: '2026-10-01T00:00:00.000000Z', id_str: refreshed, full_text: 'fetched since',
      user: { id_str: String(author), screen_name: 'fetched_author' },
    }, { retrievedAtMs: LATER_MS });
    expect(corpusSummary(e).holds_demo_data).toBe(true);

    const r = await removeSeededData(e.db);
    expect(r.removed).toEqual({ users: 199, posts: 19_999, articles: 12, spaces: 8 });
    expect(r.kept).toEqual({ users: 1, posts: 1, spaces: 0 });
    expect(r.left).toEqual([]);

    expect(getCorpusSummary(e.db)).toMatchObject({ users: 2, posts: 2, articles: 0, spaces: 0 });
    expect(e.db.prepare('SELECT CAST(id AS TEXT) FROM posts ORDER BY id').pluck().all()).toEqual(['1991000000000000001', refreshed]);
    // Entity rows and the full-text index hold the kept posts only, and agree with the posts.
    for (const table of ['post_hashtags', 'post_mentions', 'post_urls', 'post_symbols', 'articles']) {
      expect([table, count(e.db, `SELECT count(*) FROM ${table} WHERE post_id NOT IN (SELECT id FROM posts)`)]).toEqual([table, 0]);
    }
    expect(count(e.db, "SELECT count(*) FROM post_hashtags WHERE tag = 'opendata' AND post_id = 1991000000000000001")).toBe(1);
    expect(count(e.db, "SELECT count(*) FROM posts_fts WHERE posts_fts MATCH 'chart'")).toBe(0);
    expect(count(e.db, "SELECT count(*) FROM posts_fts WHERE posts_fts MATCH 'council'")).toBe(1);
    expect(() => e.db.prepare("INSERT INTO posts_fts (posts_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    expect(e.db.pragma('foreign_key_check')).toEqual([]);

    expect([demoState(e.db), getTour(e.db), seedsOf(e.db)]).toEqual(['removed', null, []]);
    expect(corpusSummary(e)).toMatchObject({ holds_demo_data: false, tour: [] });
    await expect(removeSeededData(e.db)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('holds no demo data') });
  }, 60_000);

  it('waits for collecting jobs, and leaves a generated corpus larger than the demo', async () => {
    const e = testEngine();
    const tour = loadDemoOnFirstStart(e.db, { wanted: true }).tour as Tour;
    const { user } = createKey(e, 'analyst');
    const parsed = parseRepliesJob(e.db, tour.large_conversation_root.id_str, { output_format: 'csv' });
    const jobId = createJob(e.db, { userId: user.id, kind: 'replies', params: parsed.params, output: parsed.output, maxRows: parsed.maxRows, nowMs: e.clock.nowMs() });
    await expect(removeSeededData(e.db)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('1 job is still collecting') });
    expect(getCorpusSummary(e.db).posts).toBe(20_000);
    cancelJob(e.db, jobId, e.clock.nowMs());

    // A benchmark corpus is recorded but not generated here: removal leaves it and says so.
    recordSeed(e.db, { scale: 'large', seed: 3 });
    expect(removableSeeds(e.db)).toEqual([{ scale: 'demo', seed: 1 }]);
    const r = await removeSeededData(e.db);
    expect([r.removed.posts, r.left]).toEqual([20_000, [{ scale: 'large', seed: 3 }]]);
    expect(seedsOf(e.db)).toEqual([{ scale: 'large', seed: 3 }]);
    await expect(removeSeededData(e.db)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('skein seed --scale large --seed 3') });
  }, 60_000);
});
