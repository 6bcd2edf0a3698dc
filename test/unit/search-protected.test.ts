import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine/engine';
import { compileQuery, countMatches, countReplies, pageSql, repliesPage, repliesPageSql, searchPage, type SearchRequest } from '../../src/main/engine/search';
import { protectedTuning } from '../../src/main/engine/search/protected';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { testEngine } from '../helpers/engine';
import { idOf, nameOfId, tweetOf, writeProtectedPosts, writeSearchCorpus } from '../helpers/search-corpus';
import { newestFirst, writeMidConversation } from '../fixtures/replies-corpus';

// Protected accounts in the search (issue 12, part 7) and reply collection under a post that is
// not a root (part 5), at the level of the search module: results, counts and query plans.
// Eve (protected) wrote p20, p21 (a reply to p1) and p23; bob's p22 and alice's p24 are public
// replies to her posts (test/helpers/search-corpus.ts).

let engine: Engine;
beforeEach(() => {
  engine = testEngine();
  writeSearchCorpus(engine.db);
  writeProtectedPosts(engine.db);
});

const names = (request: Omit<SearchRequest, 'limit'>) => searchPage(engine.db, { limit: 100, ...request }).ids.map(nameOfId);
const plan = (sql: { sql: string; params: unknown[] }) =>
  (engine.db.prepare(`EXPLAIN QUERY PLAN ${sql.sql}`).all(...sql.params) as { detail: string }[]).map((r) => r.detail).join(' | ');

describe('a protected account\'s posts are never a search match', () => {
  it.each([
    ['from:eve', []],
    ['from:EVE fox', []],
    ['private', []],
    ['fox', ['p24', 'p22', 'p9', 'p8', 'p1']],
    ['#foxes', ['p8', 'p1']],
    ['$aapl', ['p5']],
    [`quoted_tweet_id:${idOf(5)}`, ['p6']],
    [`conversation_id:${idOf(1)}`, ['p22', 'p7', 'p4', 'p3', 'p2', 'p1']],
    // Public replies to her posts are public.
    ['to:eve OR from:eve', ['p24', 'p22']],
    ['-from:bob filter:replies', ['p24', 'p7', 'p4', 'p3']],
    ['from:eve OR from:carol', ['p6', 'p3']],
    ['(from:eve OR #foxes) fox', ['p8', 'p1']],
  ])('%s', (query, expected) => {
    expect(names({ query })).toEqual(expected);
    expect(countMatches(engine.db, { query })).toBe(expected.length);
  });

  it('Top leaves out her best-scored post', () => {
    expect(names({ query: 'brown', type: 'Top' })).toEqual(['p9', 'p1', 'p24', 'p3']);
  });

  it('a query that can match nothing answers an empty page instead of failing (no query solution)', () => {
    // from: a protected (or unknown) account, or an empty time window, beside a partial-index driver.
    for (const query of [`from:eve quoted_tweet_id:${idOf(5)}`, `from:nobody quoted_tweet_id:${idOf(5)}`, `quoted_tweet_id:${idOf(5)} since:2030-01-01`, `quoted_tweet_id:${idOf(5)} (from:eve fox)`]) {
      for (const type of ['Latest', 'Top'] as const) expect(names({ query, type }), `${type} ${query}`).toEqual([]);
      expect(countMatches(engine.db, { query })).toBe(0);
    }
  });
});

describe('the plans stay index-driven', () => {
  const DRIVERS = [
    ['fox', /SCAN posts_fts VIRTUAL TABLE INDEX/],
    ['#foxes', /SEARCH d USING PRIMARY KEY \(tag=\? AND post_id<\?\)/],
    [`conversation_id:${idOf(1)}`, /SEARCH p USING (COVERING )?INDEX posts_conversation_id \(conversation_id=\? AND (id|rowid)<\?\)/],
    ['from:bob', /SEARCH p USING (COVERING )?INDEX posts_user_timeline \(user_id=\? AND (id|rowid)<\?\)/],
  ] as const;

  it('her few posts are dropped from the rows a page reads: a full-text or entity page reads no posts row', () => {
    for (const [query, step] of DRIVERS) {
      const sql = pageSql(engine.db, { query, limit: 20, cursor: 'L:5' });
      const p = plan(sql);
      expect(p, query).toMatch(step);
      expect(sql.sql, query).not.toMatch(/NOT IN|social_users/);
      expect(p, query).not.toMatch(/SCAN p\b/);
      expect(p, query).not.toMatch(/TEMP B-TREE/);
    }
    expect(plan(pageSql(engine.db, { query: 'fox', limit: 20 }))).not.toMatch(/SEARCH p\b/);
    expect(plan(pageSql(engine.db, { query: '#foxes', limit: 20 }))).not.toMatch(/SEARCH p\b/);
  });

  it('pages one post at a time step over her posts (a read that loses rows reads on) and lose nothing else', () => {
    // Her p20, p21 and p23 (all "private") sit between the public matches p24, p22 and p9, p8, p1.
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page = searchPage(engine.db, { query: 'fox OR private', limit: 1, cursor });
      pages.push(...page.ids.map(nameOfId));
      cursor = page.nextCursor;
    } while (cursor !== null && pages.length < 50);
    expect(pages).toEqual(names({ query: 'fox OR private' }));
    expect(pages).not.toEqual(expect.arrayContaining(['p20']));
    expect(pages).not.toEqual(expect.arrayContaining(['p21']));
    expect(pages).not.toEqual(expect.arrayContaining(['p23']));
  });

  it('past protectedTuning.maxIds posts, the condition reads the protected accounts from their own index', () => {
    const saved = protectedTuning.maxIds;
    protectedTuning.maxIds = 2; // eve has 3 posts
    try {
      for (const [query, step] of DRIVERS) {
        const p = plan(pageSql(engine.db, { query, limit: 20, cursor: 'L:5' }));
        expect(p, query).toMatch(step);
        expect(p, query).toMatch(/LIST SUBQUERY/);
        expect(p, query).toMatch(/SCAN social_users USING COVERING INDEX social_users_protected/);
        expect(p, query).not.toMatch(/SCAN p\b/);
        expect(p, query).not.toMatch(/TEMP B-TREE/);
      }
      // The same posts either way.
      expect(names({ query: 'fox' })).toEqual(['p24', 'p22', 'p9', 'p8', 'p1']);
      expect(names({ query: 'to:eve OR from:eve' })).toEqual(['p24', 'p22']);
    } finally {
      protectedTuning.maxIds = saved;
    }
  });

  it('a protected account with hundreds of posts is still left out by id (the 10M corpus has one with 579)', () => {
    // 600 more of eve's posts, all "#foxes" and newer than every public one: the first page of
    // #foxes reads past all of them and must still find only the public p8 and p1.
    engine.db.transaction(() => {
      for (let n = 1000; n < 1600; n++) {
        upsertTweet(engine.db, tweetOf({ n, by: 'eve', day: '2024-02-01T00:00:00', text: `eve ${n}`, hashtags: ['foxes'] }), { retrievedAtMs: 1 });
      }
    })();
    expect(compileQuery(engine.db, '#foxes').excludeIds).toHaveLength(603);
    const sql = pageSql(engine.db, { query: '#foxes', limit: 20 });
    expect(sql.sql).not.toMatch(/NOT IN|social_users/);
    expect(plan(sql)).not.toMatch(/SEARCH p\b/);
    expect(names({ query: '#foxes' })).toEqual(['p8', 'p1']);
    expect(countMatches(engine.db, { query: '#foxes' })).toBe(2);
  });

  it('without a protected account the SQL has no such condition', () => {
    const plain = testEngine();
    writeSearchCorpus(plain.db);
    expect(pageSql(plain.db, { query: 'fox', limit: 20 }).sql).not.toMatch(/social_users|NOT IN/);
    expect(compileQuery(plain.db, 'fox').excludeIds).toEqual([]);
    expect([...compileQuery(engine.db, 'fox').excludeIds].sort()).toEqual([idOf(20), idOf(21), idOf(23)]);
  });
});

describe('reply collection under a post that is not a root', () => {
  it('pages its levels 1 and 2 newest first, keyset by keyset, and counts them', () => {
    const db = testEngine().db;
    const c = writeMidConversation(db, { protectedReplies: true });
    const expected = newestFirst([...c.midLevel1, ...c.midLevel2, c.publicUnderProtected!.underMid]);
    const got: bigint[] = [];
    let cursor: string | null = null;
    do {
      const page = repliesPage(db, { tweetId: c.mid, limit: 2, cursor });
      got.push(...page.ids);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(got).toEqual(expected);
    expect(countReplies(db, { tweetId: c.mid }, 1000)).toBe(9);
    expect(countReplies(db, { tweetId: c.mid }, 4)).toBe(4);
    expect(countReplies(db, { tweetId: c.mid, sinceId: expected[3]! }, 1000)).toBe(3);
    expect(repliesPage(db, { tweetId: c.mid, limit: 100, sinceId: expected[3]! }).ids).toEqual(expected.slice(0, 3));
    // The root: the spec's conversation search, protected replies left out there too.
    expect(countReplies(db, { tweetId: c.root }, 1000)).toBe(7);
  });

  it('walks posts_in_reply_to for both levels, never the whole conversation or posts', () => {
    const db = testEngine().db;
    const c = writeMidConversation(db, { protectedReplies: true });
    const sql = repliesPageSql(db, { tweetId: c.mid, limit: 1000, cursor: `L:${c.midLevel2[4]}`, sinceId: c.midLevel1[0]! });
    const p = (db.prepare(`EXPLAIN QUERY PLAN ${sql.sql}`).all(...sql.params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(p).toMatch(/SEARCH p USING INDEX posts_in_reply_to \(in_reply_to_status_id=\? AND rowid>\? AND rowid<\?\)/);
    expect(p).toMatch(/SEARCH d USING (COVERING )?INDEX posts_in_reply_to \(in_reply_to_status_id=\?\)/);
    expect(p).not.toMatch(/SCAN (p|d)\b/);
    expect(repliesPageSql(db, { tweetId: c.root, limit: 20 }).sql).toContain('posts_conversation_id');
  });
});
