import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/main/engine/serialize/json';
import type { PostRow, SpaceRow } from '../../src/main/engine/serialize/rows';
import { articleDetail } from '../../src/main/engine/serialize/article';
import { spaceObject } from '../../src/main/engine/serialize/space';
import { detailTweet, timelineTweet } from '../../src/main/engine/serialize/tweet';
import { DETAIL_TWEET_JSON, TIMELINE_TWEET_JSON } from '../../src/main/engine/serialize/tweet-json-sql';
import { detailTweetJson } from '../../src/main/engine/serialize/tweet-json';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { POST_COLUMNS, POST_FROM, POST_SELECT, postRowOf } from '../../src/main/engine/reads/post-select';
import type { Db } from '../../src/main/engine/store/db';
import { testEngine } from '../helpers/engine';

const row: PostRow = {
  id: 1800000000000000001n, user_id: 9007199254740993n, created_at_us: 1709658124123456n, full_text: 'hi', source: 'web',
  truncated: 0n, in_reply_to_status_id: 9007199254740995n, in_reply_to_user_id: 9007199254740997n, in_reply_to_screen_name: 'bob',
  quoted_status_id: null, is_quote_status: 0n, quote_count: 1n, reply_count: 2n, retweet_count: 3n, favorite_count: 4n,
  views_count: 5n, bookmark_count: 6n, lang: 'en',
  entities_json: '{"user_mentions":[{"id_str":"1","name":"n","screen_name":"s","indices":[0,2]}],"urls":[],"media":[{"x":1}],"timestamps":[{"t":1}]}',
  quoted_status_json: null, retweeted_status_json: '{"id":12345678901234567890,"user":{"id":12345678901234567891,"id_str":"12345678901234567891"}}',
  u_screen_name: 'alice', u_name: 'Alice', u_location: '', u_url: null, u_description: '', u_protected: 0n, u_verified: 1n,
  u_followers_count: 1n, u_friends_count: 2n, u_listed_count: 3n, u_favourites_count: 4n, u_statuses_count: 5n,
  u_created_at_us: 1539202764000000n, u_profile_banner_url: '', u_profile_image_url_https: '', u_can_dm: 1n,
};

/**
 * Stores `r` (its author too) as the importers would, then writes it three ways: SQLite's text,
 * the jobs' writer (detailTweetJson) and the reference, toJson(detailTweet(row)).
 */
function bothWays(db: Db, r: PostRow): { sql: string; jobs: string; js: string; timelineSql: string; timelineJs: string } {
  db.prepare(`INSERT OR REPLACE INTO social_users (id, screen_name, screen_name_lower, name, location, url, description, protected,
      verified, followers_count, friends_count, listed_count, favourites_count, statuses_count, created_at_us, profile_banner_url,
      profile_image_url_https, can_dm, retrieved_at_ms)
    VALUES (?, ?, lower(?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`).run(
    r.user_id, r.u_screen_name, r.u_screen_name, r.u_name, r.u_location, r.u_url, r.u_description, r.u_protected, r.u_verified,
    r.u_followers_count, r.u_friends_count, r.u_listed_count, r.u_favourites_count, r.u_statuses_count, r.u_created_at_us,
    r.u_profile_banner_url, r.u_profile_image_url_https, r.u_can_dm,
  );
  db.prepare(`INSERT OR REPLACE INTO posts (id, user_id, created_at_us, full_text, source, truncated, in_reply_to_status_id,
      in_reply_to_user_id, in_reply_to_screen_name, quoted_status_id, is_quote_status, quote_count, reply_count, retweet_count,
      favorite_count, views_count, bookmark_count, lang, entities_json, quoted_status_json, retweeted_status_json,
      conversation_id, retrieved_at_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`).run(
    r.id, r.user_id, r.created_at_us, r.full_text, r.source, r.truncated, r.in_reply_to_status_id, r.in_reply_to_user_id,
    r.in_reply_to_screen_name, r.quoted_status_id, r.is_quote_status, r.quote_count, r.reply_count, r.retweet_count,
    r.favorite_count, r.views_count, r.bookmark_count, r.lang, r.entities_json, r.quoted_status_json, r.retweeted_status_json, r.id,
  );
  const sql = db.prepare(`SELECT ${DETAIL_TWEET_JSON} ${POST_FROM} WHERE p.id = ?`).pluck().safeIntegers(true).get(r.id) as string;
  const stored = postRowOf(db.prepare(`${POST_SELECT} WHERE p.id = ?`).safeIntegers(true).raw(true).get(r.id) as unknown[]);
  const timelineSql = db.prepare(`SELECT ${TIMELINE_TWEET_JSON} ${POST_FROM} WHERE p.id = ?`).pluck().safeIntegers(true).get(r.id) as string;
  return { sql, jobs: detailTweetJson(stored), js: toJson(detailTweet(stored)), timelineSql, timelineJs: toJson(timelineTweet(stored)) };
}

describe('the detail Tweet written by SQLite (DETAIL_TWEET_JSON) and by the jobs\' writer (detailTweetJson)', () => {
  it('is byte for byte toJson(detailTweet(row)): a hand-made row, a damaged one, every post of a seeded corpus', () => {
    const engine = testEngine();
    const once = bothWays(engine.db, row);
    expect(once.sql).toBe(once.js);
    expect(once.jobs).toBe(once.js);
    const damaged = { ...row, entities_json: '{not json', quoted_status_json: '[1,', in_reply_to_status_id: null, u_url: 'x"\\\u2028' };
    const twice = bothWays(engine.db, damaged);
    expect(twice.sql).toBe(twice.js);
    expect(twice.jobs).toBe(twice.js);
    expect(twice.sql).toContain('"quoted_status":null,');
    expect(twice.sql).toContain('"entities":{"user_mentions":[],"urls":[],"hashtags":[],"symbols":[]}');
    const seeded = testEngine();
    seedCorpus(seeded.db, { scale: 'small', seed: 7 });
    const rows = seeded.db.prepare(`SELECT ${DETAIL_TWEET_JSON}, ${POST_COLUMNS} ${POST_FROM}`).safeIntegers(true).raw(true).all() as unknown[][];
    expect(rows.length).toBeGreaterThan(1000);
    for (const [json, ...columns] of rows) {
      const stored = postRowOf(columns);
      expect(json).toBe(toJson(detailTweet(stored)));
      expect(detailTweetJson(stored)).toBe(json);
    }
  });

  it('agrees with detailTweet on random rows: any text, ids up to 2^63-1, times from year 0000 to 9999, odd stored JSON', () => {
    const engine = testEngine();
    // Characters JSON escapes or that trip writers: controls, quotes, backslash, U+2028, a lone surrogate
    // (stored as U+FFFD), astral code points.
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\u001f', '\b', '\n', '"', '\\', '/', '\u2028', '\ud800', '\u007f', 'é', '😀'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 });
    const id = fc.bigInt({ min: 1n, max: 2n ** 63n - 1n });
    const flag = fc.constantFrom(0n, 1n, 2n);
    const count = fc.bigInt({ min: 0n, max: 2n ** 40n });
    // 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z, the range the importers accept.
    const time = fc.bigInt({ min: -62_167_219_200_000_000n, max: 253_402_300_799_999_999n });
    // Stored JSON as our writers store it (stringifyExact: JSON.stringify's canonical text), or damaged.
    const json = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ user_mentions: fc.jsonValue(), urls: fc.array(fc.jsonValue()), hashtags: fc.jsonValue() }).map((v) => JSON.stringify(v)),
      fc.constantFrom('{"id":12345678901234567890,"n":[1.5,-2.5e-8]}', '{not json', '', '[]', 'null'),
    );
    const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
    const randomRow = fc.record({
      id, user_id: id, created_at_us: time, full_text: text, source: text, truncated: flag,
      in_reply_to_status_id: nullable(id), in_reply_to_user_id: nullable(id), in_reply_to_screen_name: nullable(text),
      quoted_status_id: nullable(id), is_quote_status: flag, quote_count: count, reply_count: count, retweet_count: count,
      favorite_count: count, views_count: count, bookmark_count: count, lang: text, entities_json: json,
      quoted_status_json: nullable(json), retweeted_status_json: nullable(json),
      u_screen_name: text, u_name: text, u_location: text, u_url: nullable(text), u_description: text, u_protected: flag,
      u_verified: flag, u_followers_count: count, u_friends_count: count, u_listed_count: count, u_favourites_count: count,
      u_statuses_count: count, u_created_at_us: time, u_profile_banner_url: text, u_profile_image_url_https: text, u_can_dm: flag,
    }) satisfies fc.Arbitrary<PostRow>;
    fc.assert(
      fc.property(randomRow, (r) => {
        const { sql, jobs, js, timelineSql, timelineJs } = bothWays(engine.db, r);
        expect(sql).toBe(js);
        expect(jobs).toBe(js);
        expect(timelineSql).toBe(timelineJs);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the timeline Tweet written by SQLite (TIMELINE_TWEET_JSON)', () => {
  it('is byte for byte toJson(timelineTweet(row)): a hand-made row with nested statuses, a damaged one, every post of a seeded corpus', () => {
    const engine = testEngine();
    const nested = {
      ...row,
      quoted_status_json: '{"id":12345678901234567890,"id_str":"12345678901234567890","in_reply_to_status_id":1,"quoted_status_id":null,"user":{"id":7,"id_str":"7"},"n":[1.5]}',
      retweeted_status_json: '{"user":{"id":1,"id_str":"1"},"in_reply_to_user_id":3}',
    };
    const once = bothWays(engine.db, nested);
    expect(once.timelineSql).toBe(once.timelineJs);
    // No numeric id anywhere: the tweet's, its user's, the nested statuses' and their users'.
    expect(once.timelineSql).toContain('"quoted_status":{"id_str":"12345678901234567890","user":{"id_str":"7"},"n":[1.5]}');
    expect(once.timelineSql).not.toMatch(/"(id|in_reply_to_status_id|in_reply_to_user_id|quoted_status_id)":\d/);
    // Damaged, or not an object (kept as stored, like a user that is not an object).
    for (const odd of [
      { entities_json: '{not json', quoted_status_json: '[1,', retweeted_status_json: '[{"id":1}]', u_url: 'x"\\\u2028' },
      { quoted_status_json: '{"user":[{"id":1}],"id":2}', retweeted_status_json: '"text"' },
    ]) {
      const r = bothWays(engine.db, { ...row, ...odd });
      expect(r.timelineSql).toBe(r.timelineJs);
    }
    const seeded = testEngine();
    seedCorpus(seeded.db, { scale: 'small', seed: 7 });
    const rows = seeded.db.prepare(`SELECT ${TIMELINE_TWEET_JSON}, ${POST_COLUMNS} ${POST_FROM}`).safeIntegers(true).raw(true).all() as unknown[][];
    expect(rows.length).toBeGreaterThan(1000);
    for (const [json, ...columns] of rows) expect(json).toBe(toJson(timelineTweet(postRowOf(columns))));
  });
});

describe('tweet shapes', () => {
  it('timeline: _str ids only (no numeric id anywhere, nested user included)', () => {
    const text = toJson(timelineTweet(row));
    expect(text).not.toMatch(/"(id|in_reply_to_status_id|in_reply_to_user_id|quoted_status_id)":/);
    expect(text).toContain('"in_reply_to_status_id_str":"9007199254740995"');
    expect(text).toContain('"user":{"id_str":"9007199254740993"');
    expect(text).toContain('"tweet_created_at":"2024-03-05T17:02:04.123456Z"');
    expect(text).toContain('"retweeted_status":{"user":{"id_str":"12345678901234567891"}}');
  });

  it('detail: exact numeric ids next to the strings; text null; booleans; spec entity keys only', () => {
    const text = toJson(detailTweet(row));
    expect(text).toContain('"id":1800000000000000001,"id_str":"1800000000000000001","text":null');
    expect(text).toContain('"in_reply_to_status_id":9007199254740995,"in_reply_to_status_id_str":"9007199254740995"');
    expect(text).toContain('"in_reply_to_user_id":9007199254740997,');
    expect(text).toContain('"user":{"id":9007199254740993,"id_str":"9007199254740993"');
    expect(text).toContain('"quoted_status_id":null,"quoted_status_id_str":null,"is_quote_status":false');
    expect(text).toContain('"verified":true');
    expect(text).toContain('"retweeted_status":{"id":12345678901234567890,"user":{"id":12345678901234567891,"id_str":"12345678901234567891"}}');
    expect(text).toContain('"entities":{"user_mentions":[{"id_str":"1","name":"n","screen_name":"s","indices":[0,2]}],"urls":[],"hashtags":[],"symbols":[]}');
  });

  it('article: +00:00 forms, the extra fields, entities.timestamps', () => {
    const t = articleDetail(row, {
      id: 1800000000000000777n, title: 'T', preview_text: 'P', cover_url: 'c', published_at_us: 1709661600500000n,
      content_state_json: '{"blocks":[{"key":"k","data":[],"entityRanges":[],"inlineStyleRanges":[],"text":"x","type":"unstyled"}]}',
      media_entities_json: '[]',
    });
    const text = toJson(t);
    expect(text).toContain('"tweet_created_at":"2024-03-05T17:02:04+00:00"');
    expect(text).toContain('"created_at":"2018-10-10T20:19:24+00:00"');
    expect(text).toContain('"timestamps":[{"t":1}]');
    expect(text).toContain('"created_at":"2024-03-05T17:02:04+00:00","user_id":9007199254740993,"user_screen_name":"alice","article":{"published_at":"2024-03-05T18:00:00+00:00","id":1800000000000000777,"id_str":"1800000000000000777"');
    expect(text).toContain('"entityMap":[]');
  });

  it('a damaged stored JSON column reads as its empty value instead of failing the response', () => {
    const t = detailTweet({ ...row, entities_json: '{broken', retweeted_status_json: 'nope' });
    expect(t.entities).toEqual({ user_mentions: [], urls: [], hashtags: [], symbols: [] });
    expect(t.retweeted_status).toBeNull();
  });
});

describe('space shape', () => {
  const space: SpaceRow = {
    id: '1YqKDqWqdPLxV', state: 'Ended', title: 't', media_key: 'm', created_at_ms: 1n, scheduled_start_ms: 2n, started_at_ms: 3n,
    updated_at_ms: 4n, ended_at_ms: 1700003800000n, disallow_join: 0n, is_employee_only: 0n, is_locked: 1n,
    is_space_available_for_replay: 1n, is_space_available_for_clipping: 0n, narrow_cast_space_type: 0n, conversation_controls: 2n,
    total_replay_watched: 7n, total_live_listeners: 8n,
    creator_json: '{"id":"abc","legacy":{"created_at":"2018-10-10T20:19:24Z","followers_count":3}}',
  };
  it('integers for time fields, a string for ended_at, the Twitter form for creator.legacy.created_at', () => {
    const text = toJson(spaceObject(space));
    expect(text).toContain('"created_at":1,"scheduled_start":2,"started_at":3,"ended_at":"1700003800000","updated_at":4');
    expect(text).toContain('"is_locked":true');
    expect(text).toContain('"creator":{"id":"abc","legacy":{"created_at":"Wed Oct 10 20:19:24 +0000 2018","followers_count":3}}');
    expect(toJson(spaceObject({ ...space, ended_at_ms: null }))).toContain('"ended_at":null');
  });
});
