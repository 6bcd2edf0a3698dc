import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CorpusInputError, formatMicroZ, formatOffset, formatV1, parseJsonExact, parseTimestampUs, upsertArticleDetails, upsertSpace, upsertTweet, upsertUser,
} from '../../src/main/engine/corpus/write';
import type { Db } from '../../src/main/engine/store/db';
import { testEngine } from '../helpers/engine';

const fixtures = join(__dirname, '..', 'fixtures', 'corpus');
const load = (name: string) => parseJsonExact(readFileSync(join(fixtures, name), 'utf8')) as Record<string, unknown>;
const post = (db: Db, id: bigint) => db.prepare('SELECT * FROM posts WHERE id = ?').safeIntegers(true).get(id) as Record<string, unknown> | undefined;

function tweet(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tweet_created_at: '2026-01-02T03:04:05.000006Z', id_str: id, text: null, full_text: `post ${id}`,
    user: { id_str: '9007199254740993', screen_name: 'Ada_Fixture', name: 'Ada', created_at: '2020-01-01T00:00:00.000000Z' },
    favorite_count: 1, lang: 'en', entities: { user_mentions: [], urls: [], hashtags: [], symbols: [] },
    ...extra,
  };
}

describe('corpus write: ids', () => {
  it('keeps ids above 2^53 exact, from *_str and from numeric JSON text', () => {
    const { db } = testEngine();
    const text = readFileSync(join(fixtures, 'tweet-detail.json'), 'utf8');
    expect(upsertTweet(db, parseJsonExact(text), { retrievedAtMs: 1 })).toBe('added');
    const row = post(db, 1897000000000000123n)!;
    expect(row.user_id).toBe(1234567890123456789n);
    expect(row.in_reply_to_status_id).toBe(1896999999999999001n);
    expect(row.in_reply_to_user_id).toBe(9007199254740993n);

    // Only numeric ids (no _str), as v1.1 files give them: read from the raw digits.
    const numericOnly = parseJsonExact('{"tweet_created_at":"2026-01-01T00:00:00.000000Z","id":9007199254740993,"full_text":"x","user":{"id":9007199254740995,"screen_name":"n"}}');
    upsertTweet(db, numericOnly, { retrievedAtMs: 1 });
    expect(post(db, 9007199254740993n)!.user_id).toBe(9007199254740995n);
  });

  it('refuses a numeric id that already lost its digits, naming the field', () => {
    const { db } = testEngine();
    const lossy = JSON.parse('{"tweet_created_at":"2026-01-01T00:00:00Z","id":9007199254740993,"full_text":"x","user":{"id_str":"1","screen_name":"n"}}');
    expect(() => upsertTweet(db, lossy, { retrievedAtMs: 1 })).toThrow(/^id: numeric id 9007199254740992 is not exact/);
    expect(db.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(0);
  });

  it('parseJsonExact leaves strings, floats and small numbers alone', () => {
    expect(parseJsonExact('{"a":"12345678901234567890","b":1.5e300,"c":12,"d":[12345678901234567890],"e":"x\\"12345678901234567"}'))
      .toEqual({ a: '12345678901234567890', b: 1.5e300, c: 12, d: ['12345678901234567890'], e: 'x"12345678901234567' });
  });
});

describe('corpus write: timestamps', () => {
  const us = (iso: string, extraUs = 0) => Date.parse(iso) * 1000 + extraUs;
  it.each([
    ['2026-03-04T05:06:07.123456Z', us('2026-03-04T05:06:07.123Z', 456)],
    ['2026-03-04T05:06:07+00:00', us('2026-03-04T05:06:07Z')],
    ['2026-03-04T05:06:07.000Z', us('2026-03-04T05:06:07Z')],
    ['2026-03-04T07:06:07+02:00', us('2026-03-04T05:06:07Z')],
    ['Wed Oct 10 20:19:24 +0000 2018', us('2018-10-10T20:19:24Z')],
    ['2026-02-30T00:00:00Z', NaN],
    ['2026-13-01T00:00:00Z', NaN],
    // Years 0 to 99 are those years, not 1900 to 1999 (Date.UTC's reading).
    ['0050-06-01T00:00:00Z', -60576249600000000],
    ['0000-01-01T00:00:00Z', -62167219200000000],
    ['9999-12-31T23:59:59Z', 253402300799000000],
    // A four-digit year only after the offset: outside 0000-9999 UTC is refused.
    ['0000-01-01T00:30:00+01:00', NaN],
    ['9999-12-31T23:30:00-01:00', NaN],
    ['yesterday', NaN],
  ])('reads %s', (text, expected) => {
    expect(parseTimestampUs(text)).toBe(expected);
  });

  it('formats the three forms of the spec', () => {
    const t = us('2018-10-10T20:19:24.5Z', 7);
    expect([formatMicroZ(t), formatOffset(t), formatV1(t)]).toEqual(['2018-10-10T20:19:24.500007Z', '2018-10-10T20:19:24+00:00', 'Wed Oct 10 20:19:24 +0000 2018']);
  });
});

describe('corpus write: latest retrieval wins', () => {
  it('is idempotent, updates on a newer retrieval and ignores an older one', () => {
    const { db } = testEngine();
    const t = tweet('1900000000000000001');
    expect(upsertTweet(db, t, { retrievedAtMs: 100 })).toBe('added');
    expect(upsertTweet(db, t, { retrievedAtMs: 100 })).toBe('unchanged');
    expect(upsertTweet(db, t, { retrievedAtMs: 200 })).toBe('unchanged');
    expect(upsertTweet(db, { ...t, favorite_count: 7 }, { retrievedAtMs: 300 })).toBe('updated');
    expect(upsertTweet(db, { ...t, favorite_count: 2 }, { retrievedAtMs: 250 })).toBe('unchanged');
    const row = post(db, 1900000000000000001n)!;
    expect(row.favorite_count).toBe(7n);
    expect(row.retrieved_at_ms).toBe(300n);
    expect(db.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(1);
  });

  it('keeps stored values for fields a source does not give, and merges unmodelled fields', () => {
    const { db } = testEngine();
    upsertTweet(db, tweet('1900000000000000002', { views_count: 900, place: { name: 'Vellmar' } }), { retrievedAtMs: 1 });
    // A v1.1-like copy: no views_count, another unmodelled field, a newer counter.
    const later = tweet('1900000000000000002', { favorite_count: 5, coordinates: [1, 2] });
    expect(upsertTweet(db, later, { retrievedAtMs: 2 })).toBe('updated');
    const row = post(db, 1900000000000000002n)!;
    expect(row.views_count).toBe(900n);
    expect(row.favorite_count).toBe(5n);
    expect(JSON.parse(row.raw_json as string)).toEqual({ place: { name: 'Vellmar' }, coordinates: [1, 2] });
  });

  it('settles: copies whose unmodelled fields come in another key order are unchanged', () => {
    const { db } = testEngine();
    const id = '1900000000000000005';
    expect(upsertTweet(db, tweet(id, { place: 'x', coordinates: [1] }), { retrievedAtMs: 2 })).toBe('added');
    expect(upsertTweet(db, tweet(id, { coordinates: [1], place: 'x' }), { retrievedAtMs: 1 })).toBe('unchanged');
    expect(upsertTweet(db, tweet(id, { coordinates: [1], place: 'x' }), { retrievedAtMs: 3 })).toBe('unchanged');
    // An older copy with a key the stored one lacks adds it, once.
    expect(upsertTweet(db, tweet(id, { geo: null }), { retrievedAtMs: 1 })).toBe('updated');
    expect(upsertTweet(db, tweet(id, { geo: null }), { retrievedAtMs: 1 })).toBe('unchanged');
    expect(JSON.parse(post(db, BigInt(id))!.raw_json as string)).toEqual({ place: 'x', coordinates: [1], geo: null });
  });

  it('updates the user profile from a newer post and never duplicates it', () => {
    const { db } = testEngine();
    upsertTweet(db, tweet('1900000000000000003'), { retrievedAtMs: 1 });
    const newer = tweet('1900000000000000004');
    (newer.user as Record<string, unknown>).followers_count = 55;
    upsertTweet(db, newer, { retrievedAtMs: 2 });
    const users = db.prepare('SELECT id, followers_count, screen_name_lower FROM social_users').safeIntegers(true).all();
    expect(users).toEqual([{ id: 9007199254740993n, followers_count: 55n, screen_name_lower: 'ada_fixture' }]);
    expect(upsertUser(db, { id_str: '9007199254740993', screen_name: 'Ada_Fixture', followers_count: 1 }, { retrievedAtMs: 1 })).toBe('unchanged');
  });

  it('an author known only by id is a stand-in: never newer than a full copy, never over one', () => {
    const { db } = testEngine();
    const user = () => db.prepare('SELECT incomplete, screen_name, followers_count, raw_json, retrieved_at_ms FROM social_users WHERE id = 5').get();
    expect(upsertTweet(db, tweet('1900000000000000010', { user: { id_str: '5', withheld: { country_codes: ['IN'] } } }), { retrievedAtMs: 300 })).toBe('added');
    expect(user()).toEqual({ incomplete: 1, screen_name: '', followers_count: 0, raw_json: '{"withheld":{"country_codes":["IN"]}}', retrieved_at_ms: 300 });
    // Between stand-ins, latest retrieval wins as usual.
    expect(upsertUser(db, { id_str: '5', withheld: { country_codes: ['DE'] } }, { retrievedAtMs: 200 })).toBe('unchanged');
    // A full copy replaces the stand-in although it was retrieved earlier.
    expect(upsertUser(db, { id_str: '5', screen_name: 'five', followers_count: 3 }, { retrievedAtMs: 100 })).toBe('updated');
    expect(user()).toEqual({ incomplete: 0, screen_name: 'five', followers_count: 3, raw_json: null, retrieved_at_ms: 100 });
    // A stand-in never changes a full copy, even a newer one; the post stays with its author.
    expect(upsertTweet(db, tweet('1900000000000000010', { user: { id_str: '5' } }), { retrievedAtMs: 400 })).toBe('unchanged');
    expect(user()).toEqual({ incomplete: 0, screen_name: 'five', followers_count: 3, raw_json: null, retrieved_at_ms: 100 });
  });
});

describe('corpus write: entities, full text and conversations', () => {
  it('fills the entity tables and the FTS index, and rewrites them when the text changes', () => {
    const { db } = testEngine();
    upsertTweet(db, load('tweet-detail.json'), { retrievedAtMs: 1 });
    const id = 1897000000000000123n;
    const tags = (table: string, col: string) => db.prepare(`SELECT ${col} FROM ${table} WHERE post_id = ?`).pluck().all(id);
    expect(tags('post_hashtags', 'tag')).toEqual(['opendata']);
    expect(tags('post_symbols', 'symbol')).toEqual(['zeph']);
    expect(tags('post_mentions', 'screen_name')).toEqual(['bob_fixture']);
    expect(tags('post_urls', 'url')).toEqual(['https://example.org/a']);
    const match = (q: string) => db.prepare('SELECT rowid FROM posts_fts WHERE posts_fts MATCH ?').safeIntegers(true).pluck().all(q);
    expect(match('replying')).toEqual([id]);

    const changed = { ...load('tweet-detail.json'), full_text: 'Edited text #Other', entities: { hashtags: [{ text: 'Other', indices: [12, 18] }], user_mentions: [], urls: [], symbols: [] } };
    expect(upsertTweet(db, changed, { retrievedAtMs: 2 })).toBe('updated');
    expect(tags('post_hashtags', 'tag')).toEqual(['other']);
    expect(tags('post_mentions', 'screen_name')).toEqual([]);
    expect(match('replying')).toEqual([]);
    expect(match('edited')).toEqual([id]);
  });

  it('places replies under their root, also when replies arrive before their parents', () => {
    const { db } = testEngine();
    const r = (id: string, parent: string | null) => tweet(id, { in_reply_to_status_id_str: parent });
    // Arrival order: depth-3 reply, depth-2 reply, then the root, then the direct reply.
    upsertTweet(db, r('1900000000000000040', '1900000000000000030'), { retrievedAtMs: 1 });
    upsertTweet(db, r('1900000000000000030', '1900000000000000020'), { retrievedAtMs: 1 });
    upsertTweet(db, r('1900000000000000010', null), { retrievedAtMs: 1 });
    upsertTweet(db, r('1900000000000000020', '1900000000000000010'), { retrievedAtMs: 1 });
    const rows = db.prepare('SELECT id, conversation_id, reply_depth FROM posts ORDER BY id').safeIntegers(true).all();
    expect(rows).toEqual([
      { id: 1900000000000000010n, conversation_id: 1900000000000000010n, reply_depth: 0n },
      { id: 1900000000000000020n, conversation_id: 1900000000000000010n, reply_depth: 1n },
      { id: 1900000000000000030n, conversation_id: 1900000000000000010n, reply_depth: 2n },
      { id: 1900000000000000040n, conversation_id: 1900000000000000010n, reply_depth: 3n },
    ]);
  });
});

describe('corpus write: articles, spaces and bad input', () => {
  it('stores article details: the post, its article, content_state and the +00:00 times', () => {
    const { db } = testEngine();
    expect(upsertArticleDetails(db, load('article-detail.json'), { retrievedAtMs: 1 })).toBe('added');
    expect(upsertArticleDetails(db, load('article-detail.json'), { retrievedAtMs: 1 })).toBe('unchanged');
    const a = db.prepare('SELECT * FROM articles').safeIntegers(true).get() as Record<string, unknown>;
    expect(a.post_id).toBe(1885000000000000777n);
    expect(a.id).toBe(1885000000000000999n);
    expect(a.published_at_us).toBe(BigInt(Date.UTC(2026, 1, 1, 10, 20, 30)) * 1000n);
    expect(JSON.parse(a.content_state_json as string).blocks.map((b: { type: string }) => b.type)).toEqual(['header-one', 'unstyled', 'unordered-list-item']);
    expect(post(db, 1885000000000000777n)!.entities_json).toContain('"timestamps":[]');
  });

  it('stores a space with its creator whole and ended_at from a string', () => {
    const { db } = testEngine();
    expect(upsertSpace(db, load('space.json'), { retrievedAtMs: 1 })).toBe('added');
    const s = db.prepare('SELECT * FROM spaces').safeIntegers(true).get() as Record<string, unknown>;
    expect(s.ended_at_ms).toBe(1767232860000n);
    expect(s.creator_id).toBe('VXNlcjoxMjM0NTY3ODkwMTIzNDU2Nzg5');
    expect(JSON.parse(s.creator_json as string).legacy.created_at).toBe('Mon May 06 07:08:09 +0000 2019');
    expect(upsertSpace(db, { ...load('space.json'), total_live_listeners: 40 }, { retrievedAtMs: 2 })).toBe('updated');
  });

  it.each([
    [{ ...tweet('1'), id_str: undefined }, /id_str: missing id/],
    [{ ...tweet('1'), tweet_created_at: 'yesterday' }, /tweet_created_at: unreadable timestamp/],
    [{ ...tweet('1'), user: undefined }, /user: expected a user object/],
    [{ ...tweet('1'), user: { screen_name: 'no_id' } }, /user.id_str: missing id/],
    [{ ...tweet('1'), favorite_count: 'many' }, /favorite_count: expected an integer/],
    [{ ...tweet('1'), id_str: '99999999999999999999' }, /does not fit in 64 bits/],
    ['not an object', /expected a Tweet object/],
  ])('refuses malformed input with the field named (%#)', (input, message) => {
    const { db } = testEngine();
    let caught: unknown;
    try {
      upsertTweet(db, input, { retrievedAtMs: 1 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CorpusInputError);
    expect((caught as Error).message).toMatch(message);
    expect(db.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(0);
  });
});
