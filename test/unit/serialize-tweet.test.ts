import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/main/engine/serialize/json';
import type { PostRow, SpaceRow } from '../../src/main/engine/serialize/rows';
import { articleDetail } from '../../src/main/engine/serialize/article';
import { spaceObject } from '../../src/main/engine/serialize/space';
import { detailTweet, timelineTweet } from '../../src/main/engine/serialize/tweet';
import { detailTweetJson } from '../../src/main/engine/serialize/tweet-json';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { POST_SELECT, postRowOf } from '../../src/main/engine/reads/post-select';
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

describe('the detail Tweet written straight from the row (detailTweetJson)', () => {
  it('is byte for byte toJson(detailTweet(row)): the hand-made row and every post of a seeded corpus', () => {
    expect(detailTweetJson(row)).toBe(toJson(detailTweet(row)));
    const damaged = { ...row, entities_json: '{not json', quoted_status_json: '[1,', in_reply_to_status_id: null, u_url: 'x"\\\u2028' };
    expect(detailTweetJson(damaged)).toBe(toJson(detailTweet(damaged)));
    const engine = testEngine();
    seedCorpus(engine.db, { scale: 'small', seed: 7 });
    const rows = (engine.db.prepare(POST_SELECT).safeIntegers(true).raw(true).all() as unknown[][]).map(postRowOf);
    expect(rows.length).toBeGreaterThan(1000);
    for (const r of rows) expect(detailTweetJson(r)).toBe(toJson(detailTweet(r)));
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
