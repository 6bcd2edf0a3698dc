import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine/engine';
import { SkeinError } from '../../src/main/engine/errors';
import { parseQuery, searchPage, SearchSyntaxError } from '../../src/main/engine/search';
import { testEngine } from '../helpers/engine';
import { writeSearchCorpus } from '../helpers/search-corpus';

// Whatever a user types, the parser and the compiler either answer or refuse with `invalid`
// (a 422 naming a column inside the query): never another error, never SQL or FTS5 syntax errors.

let engine: Engine;
beforeEach(() => {
  engine = testEngine();
  writeSearchCorpus(engine.db);
});

// Fragments that exercise the grammar: operators (known and not), sigils, quotes, parentheses,
// FTS5 and SQL syntax, and arbitrary unicode.
const fragment = fc.oneof(
  fc.constantFrom(
    'fox', 'OR', 'AND', 'NOT', 'NEAR', '(', ')', '"', '-', '--', '*', '^', ':', "'", ';', '%', '_', '\\', '#', '@', '$',
    'from:', 'from:bob', 'to:alice', '#foxes', '$aapl', '@carol', 'since:2024-01-02', 'until:2024-01-03', 'since_time:1',
    'until_time:9999999999', 'since_id:1', 'max_id:9223372036854775807', 'conversation_id:1', 'quoted_tweet_id:2',
    'lang:en', 'min_faves:1', 'min_retweets:x', 'min_replies:2', 'filter:replies', 'filter:links', 'filter:media',
    'filter:quote', 'filter:self_threads', 'filter:nope', 'url:example.com', 'url:"a b"', 'unknown:x', 'full_text:fox',
    '"brown fox"', '" OR "', 'posts_fts', "'); DROP TABLE posts; --", '\u0000', '🔥', 'café', ' ', '\t', '\n',
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }), // lone surrogates and control characters too
);
const query = fc.tuple(fc.array(fragment, { maxLength: 14 }), fc.constantFrom(' ', '')).map(([parts, sep]) => parts.join(sep));

describe('random queries never crash the parser or the compiler', () => {
  it('parse + compile + run: a page of ids, or an invalid error with a position inside the query', () => {
    fc.assert(
      fc.property(query, fc.constantFrom('Latest' as const, 'Top' as const), (q, type) => {
        try {
          parseQuery(q);
          const page = searchPage(engine.db, { query: q, type, limit: 5 });
          expect(page.ids.every((id) => typeof id === 'bigint')).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(SkeinError);
          expect((err as SkeinError).code).toBe('invalid');
          expect(err).toBeInstanceOf(SearchSyntaxError);
          const e = err as SearchSyntaxError;
          expect(e.position).toBeGreaterThanOrEqual(1);
          expect(e.position).toBeLessThanOrEqual([...q].length + 1);
          expect(e.length).toBeGreaterThanOrEqual(1);
          expect(e.message).toMatch(/column \d+/);
        }
      }),
      { numRuns: 1500, seed: 20261122 },
    );
    expect(engine.db.prepare('SELECT count(*) AS n FROM posts').get()).toEqual({ n: 9 });
  });
});
