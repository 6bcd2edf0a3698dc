import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, upsertArticleDetails, upsertSpace, upsertTweet } from '../../src/main/engine/corpus/write';
import { readArticle, readSpace, readTweet } from '../../src/main/engine/reads/details';
import { parseJsonExact as parseBig, toJson } from '../../src/main/engine/serialize';
import { testEngine } from '../helpers/engine';

// Issue 3, done when: a Tweet, an article and a space imported from the service's JSON come back
// out of the store field for field: the serializer's output, read back with exact integers, equals
// the fixture (every key, exact ids, same values; key order is the serializer's business).
const text = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'corpus', name), 'utf8').trim();
const same = (served: unknown, name: string) => expect(parseBig(toJson(served))).toStrictEqual(parseBig(text(name)));

describe('corpus round trip through the API serializer', () => {
  it('a Tweet (post details) comes back field for field', () => {
    const engine = testEngine();
    upsertTweet(engine.db, parseJsonExact(text('tweet-detail.json')), { retrievedAtMs: 1 });
    same(readTweet(engine, '1897000000000000123').value, 'tweet-detail.json');
  });

  it('article details come back field for field', () => {
    const engine = testEngine();
    upsertArticleDetails(engine.db, parseJsonExact(text('article-detail.json')), { retrievedAtMs: 1 });
    same(readArticle(engine, '1885000000000000777').value, 'article-detail.json');
  });

  it('a space comes back field for field', () => {
    const engine = testEngine();
    upsertSpace(engine.db, parseJsonExact(text('space.json')), { retrievedAtMs: 1 });
    same(readSpace(engine, '1AbCdEfGhIjKl').value, 'space.json');
  });
});
