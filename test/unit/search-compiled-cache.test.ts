import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine/engine';
import { dbFileOf } from '../../src/main/engine/engine';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { compileQuery, countMatches, searchPage } from '../../src/main/engine/search';
import { openDb } from '../../src/main/engine/store/db';
import { testEngine } from '../helpers/engine';
import { idOf, nameOfId, tweetOf, writeProtectedPosts, writeSearchCorpus } from '../helpers/search-corpus';

// Compiled queries are kept while the corpus is unchanged (search/compile.ts): a compile reads
// screen names, the protected accounts' posts and a time window's id range. A write through the
// engine's own connection, or a commit by another connection, must make the next page see it.

let engine: Engine;
beforeEach(() => {
  engine = testEngine();
  writeSearchCorpus(engine.db);
});

const names = (query: string) => searchPage(engine.db, { query, limit: 100 }).ids.map(nameOfId);

describe('a kept compile never outlives the corpus it was made for', () => {
  it('is reused while nothing changes', () => {
    expect(compileQuery(engine.db, 'from:bob')).toBe(compileQuery(engine.db, 'from:bob'));
    expect(compileQuery(engine.db, 'from:bob', { sinceId: idOf(1) })).not.toBe(compileQuery(engine.db, 'from:bob'));
  });

  it('a new account, a post in a time window and a protected account written by this connection show at once', () => {
    expect(names('from:zed')).toEqual([]);
    expect(names('since:2024-01-02 until:2024-01-03')).toEqual(['p3', 'p2']);
    expect(names('fox')).toEqual(['p9', 'p8', 'p1']);
    upsertTweet(engine.db, { ...tweetOf({ n: 30, by: 'carol', day: '2024-01-02T12:00:00', text: 'a fox at noon' }), user: { id_str: '9000000000000000009', screen_name: 'zed', name: 'zed', created_at: '2020-01-01T00:00:00.000000Z' } }, { retrievedAtMs: 2 });
    expect(names('from:zed')).toEqual(['p30']);
    expect(names('since:2024-01-02 until:2024-01-03')).toEqual(['p30', 'p3', 'p2']);
    writeProtectedPosts(engine.db);
    expect(names('fox')).toEqual(['p30', 'p24', 'p22', 'p9', 'p8', 'p1']);
    expect(countMatches(engine.db, { query: 'fox' })).toBe(6);
  });

  it('a commit by another connection shows at once', () => {
    expect(names('from:zed')).toEqual([]);
    const other = openDb(dbFileOf(engine.dataDir));
    try {
      upsertTweet(other, { ...tweetOf({ n: 31, by: 'carol', day: '2024-01-03T12:00:00', text: 'hello' }), user: { id_str: '9000000000000000009', screen_name: 'zed', name: 'zed', created_at: '2020-01-01T00:00:00.000000Z' } }, { retrievedAtMs: 2 });
    } finally {
      other.close();
    }
    expect(names('from:zed')).toEqual(['p31']);
  });
});
