import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine/engine';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { compileQuery, countMatches, pageSql, searchPage, type SearchType } from '../../src/main/engine/search';
import { sourceTuning } from '../../src/main/engine/search/sources';
import { topRangeSql, topTuning } from '../../src/main/engine/search/top';
import { openDb, type Db } from '../../src/main/engine/store/db';
import { migrate } from '../../src/main/engine/store/migrate';
import { testEngine } from '../helpers/engine';
import { nameOfId, writeSearchCorpus } from '../helpers/search-corpus';

// Queries made only of filters (`lang:`, counters, `filter:`, `url:`) are driven by the filter
// whose index lists the fewest posts (search/sources.ts, migration 067). Their plans are pinned
// here, and every plan must give exactly the rows the plain scan gives (sources switched off):
// on the seeded small corpus (2,000 posts: de 2, es 474, likes >= 10 608, links 245, quotes 78,
// self-threads 176, replies 1,183, one protected account), Latest and Top, paged.

const withoutSources = <T>(fn: () => T): T => {
  const saved = { ...sourceTuning };
  Object.assign(sourceTuning, { orderedMax: -1, listMax: -1 }); // no count is at most -1: no source
  try {
    return fn();
  } finally {
    Object.assign(sourceTuning, saved);
  }
};

describe('each filter drives from its own index (EXPLAIN QUERY PLAN)', () => {
  let engine: Engine;
  beforeEach(() => {
    engine = testEngine();
    writeSearchCorpus(engine.db);
  });

  const plan = (query: string, type: SearchType = 'Latest') => {
    const { sql, params } = pageSql(engine.db, { query, type, limit: 20, cursor: type === 'Top' ? 'T:5:1' : 'L:5' });
    return (engine.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  };

  it.each([
    // an ordered source: one index range in id order
    ['lang:fr', /SEARCH p USING COVERING INDEX posts_lang \(lang=\? AND rowid<\?\)/],
    ['filter:media', /SEARCH p USING COVERING INDEX posts_media \(has_media=\? AND rowid<\?\)/],
    ['filter:links', /SEARCH p USING COVERING INDEX posts_links \(has_links=\? AND rowid<\?\)/],
    // a listed source: its ids listed once from a covering index, then walked in id order
    ['min_faves:21', /LIST SUBQUERY \d+ \| SEARCH s0 USING COVERING INDEX posts_favorites \(favorite_count>\?\)/],
    ['min_retweets:10', /SEARCH s0 USING COVERING INDEX posts_retweets \(retweet_count>\?\)/],
    ['min_replies:10', /SEARCH s0 USING COVERING INDEX posts_replies \(reply_count>\?\)/],
    ['filter:quote', /SCAN s0 USING COVERING INDEX posts_quotes/],
    ['filter:self_threads', /SCAN s0 USING COVERING INDEX posts_self_threads/],
    ['filter:replies', /(SCAN|SEARCH) s0 USING COVERING INDEX posts_in_reply_to/],
    ['url:example', /SCAN s0 USING COVERING INDEX post_urls_post/],
  ])('%s', (query, step) => {
    const p = plan(query);
    expect(p).toMatch(step);
    expect(p).not.toMatch(/SCAN p\b/);
    expect(p).not.toMatch(/TEMP B-TREE/);
    if (!/posts_(lang|media|links) /.test(p)) expect(p).toMatch(/SEARCH p USING INTEGER PRIMARY KEY \(rowid=\?\)/);
  });

  it('a counter below 10 has no index and reads posts newest first, as before', () => {
    expect(compileQuery(engine.db, 'min_faves:9').driver).toBe('posts');
    expect(compileQuery(engine.db, 'min_faves:10').driver).toBe('count');
  });

  it('full text and the operators that name posts keep driving', () => {
    expect(compileQuery(engine.db, 'fox lang:en').driver).toBe('fts');
    expect(compileQuery(engine.db, '#foxes filter:links').driver).toBe('hashtag');
    expect(compileQuery(engine.db, 'from:bob lang:en').driver).toBe('from');
  });

  it('the filter listing the fewest posts drives', () => {
    // lang:en 7 posts, filter:links 2 (p5, p9), min_faves:21 2 (p5 100, p9 21), lang:fr 1
    expect(compileQuery(engine.db, 'lang:en filter:links').driver).toBe('filter');
    expect(compileQuery(engine.db, 'lang:en lang:fr').driver).toBe('lang');
    expect(compileQuery(engine.db, 'lang:en min_faves:100').driver).toBe('count');
    // a tie goes to the ordered source (no list to build)
    expect(compileQuery(engine.db, 'min_faves:21 filter:links').driver).toBe('filter');
    // beyond its limit a source is not used
    const saved = { ...sourceTuning };
    Object.assign(sourceTuning, { orderedMax: 6, listMax: 1 });
    try {
      expect(compileQuery(engine.db, 'lang:en').driver).toBe('posts');
      expect(compileQuery(engine.db, 'lang:en min_faves:21').driver).toBe('posts');
      expect(compileQuery(engine.db, 'lang:en min_faves:100').driver).toBe('count');
    } finally {
      Object.assign(sourceTuning, saved);
    }
  });

  it('the other filters small enough to list narrow the driver by id, before a posts row is read', () => {
    // filter:quote lists p6, min_faves:21 lists p5 and p9: the quotes list is narrowed to those ids.
    const listed = pageSql(engine.db, { query: 'min_faves:21 filter:quote', limit: 20 }).sql;
    expect(listed).toMatch(/p\.id IN \(SELECT s0\.id FROM posts AS s0 INDEXED BY posts_quotes WHERE .* AND s0\.id IN \(SELECT s1\.id FROM posts AS s1 INDEXED BY posts_favorites/);
    expect(searchPage(engine.db, { query: 'min_faves:21 filter:quote', limit: 20 }).ids).toEqual([]);
    expect(searchPage(engine.db, { query: 'min_faves:0 filter:quote', limit: 20 }).ids.map(nameOfId)).toEqual(['p6']);
    // lang:fr (p4) drives through its index; the likes list is checked by rowid.
    const ordered = pageSql(engine.db, { query: 'lang:fr min_faves:21', limit: 20 }).sql;
    expect(ordered).toMatch(/FROM posts AS p INDEXED BY posts_lang WHERE p\.lang = \? COLLATE NOCASE AND \(p\.id IN \(SELECT c\.id FROM posts AS c INDEXED BY posts_favorites/);
    expect(searchPage(engine.db, { query: 'lang:fr min_faves:21', limit: 20 }).ids).toEqual([]);
    expect(searchPage(engine.db, { query: 'lang:en min_faves:21', limit: 20 }).ids.map(nameOfId)).toEqual(['p9', 'p5']);
  });

  it('a url source lists a post with two matching links once', () => {
    expect(searchPage(engine.db, { query: 'url:o', limit: 10 }).ids.map(nameOfId)).toEqual(['p9', 'p5']);
    expect(countMatches(engine.db, { query: 'url:o' })).toBe(2);
  });
});

describe('every source plan gives exactly the rows of the plain scan (seeded corpus)', () => {
  // One seeded corpus for the whole block (testEngine's are closed after each test).
  let dir: string;
  let db: Db;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'skein-sources-'));
    db = openDb(join(dir, 'skein.db'));
    migrate(db);
    seedCorpus(db, { scale: 'small', seed: 1 });
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const all = (query: string, type: SearchType, limit: number): bigint[] => {
    const ids: bigint[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3000; i++) {
      const page = searchPage(db, { query, type, limit, cursor });
      ids.push(...page.ids);
      cursor = page.nextCursor;
      if (cursor === null) break;
    }
    return ids;
  };

  const QUERIES = [
    'lang:de', 'lang:ES', 'lang:fr', 'min_faves:10', 'min_faves:50', 'min_faves:200', 'min_retweets:10', 'min_replies:10', 'min_replies:2',
    'filter:media', 'filter:links', 'filter:quote', 'filter:self_threads', 'filter:replies', 'url:promo', 'url:notes/a', 'url:example',
    'lang:es filter:quote', 'lang:es min_faves:50 filter:links', 'filter:self_threads min_retweets:10', 'url:promo lang:en',
    '(lang:de OR lang:es) min_faves:20', '-lang:en filter:quote', 'lang:es -filter:replies', 'filter:replies lang:es min_faves:10',
    'min_faves:200 -filter:links', 'lang:es OR min_faves:200', 'filter:quote OR url:promo',
  ];

  it.each(QUERIES)('%s', (query) => {
    const q = compileQuery(db, query);
    for (const type of ['Latest', 'Top'] as const) {
      for (const limit of [7, 1000]) {
        const expected = withoutSources(() => all(query, type, limit));
        expect(all(query, type, limit), `${type} ${limit} (driver ${q.driver})`).toEqual(expected);
      }
    }
    expect(countMatches(db, { query })).toBe(withoutSources(() => countMatches(db, { query })));
  });

  it('Top walks a listed driver checking its list on the score index entries, and falls back to its sort, exactly', () => {
    const q = compileQuery(db, 'filter:self_threads lang:es');
    expect(q.driverList).not.toBeNull();
    const walk = topRangeSql(q, null, 21)[1]!;
    expect(walk.sql).toMatch(/WHERE wid IN \(SELECT s0\.id FROM posts AS s0 INDEXED BY posts_self_threads/);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${walk.sql}`).all(...walk.params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan).toMatch(/SCAN s0 USING COVERING INDEX posts_self_threads/);
    const saved = { ...topTuning };
    Object.assign(topTuning, { sortMax: 0, walkRows: 40 }); // every page walks, most run out and sort
    try {
      for (const query of ['filter:self_threads lang:es', 'min_faves:50 filter:links', 'filter:quote', 'url:promo', 'min_retweets:10 -lang:en']) {
        expect(all(query, 'Top', 13), query).toEqual(withoutSources(() => all(query, 'Top', 13)));
      }
    } finally {
      Object.assign(topTuning, saved);
    }
  });

  it('random combinations of filters, words and authors', () => {
    const atoms = ['lang:es', 'lang:de', 'lang:en', 'min_faves:10', 'min_faves:100', 'min_retweets:10', 'min_replies:10', 'filter:links', 'filter:quote',
      'filter:self_threads', 'filter:replies', 'filter:media', 'url:promo', 'url:notes', 'chart', '#opendata', 'since:2026-10-20'];
    const term = fc.tuple(fc.boolean(), fc.constantFrom(...atoms)).map(([neg, a]) => (neg ? `-${a}` : a));
    const query = fc.array(term, { minLength: 1, maxLength: 4 }).filter((ts) => ts.some((t) => !t.startsWith('-'))).map((ts) => ts.join(' '));
    fc.assert(
      fc.property(query, fc.constantFrom<SearchType>('Latest', 'Top'), (text, type) => {
        expect(all(text, type, 50), `${type} ${text}`).toEqual(withoutSources(() => all(text, type, 50)));
      }),
      { numRuns: 120, seed: 67 },
    );
  });
});
