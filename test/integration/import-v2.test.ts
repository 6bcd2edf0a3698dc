import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPaths } from '../../src/main/engine/corpus/importers';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

const file = join(__dirname, '..', 'fixtures', 'corpus', 'v2-page.jsonl');

describe('import: Twitter API v2 pages as twarc2 writes them', () => {
  it('expands includes, maps metrics and entities, and keeps the retrieval time of the page', async () => {
    const { db } = testEngine();
    const report = await importPaths(db, [file]);
    // The orphan post's author (404) is not in includes.users: kept, the author incomplete.
    expect(report.added).toBe(2);
    expect(report.skippedReasons).toEqual({ 'v2 page without data (an error or empty response)': 1 });
    expect(report.problems).toEqual([]);
    expect(db.prepare('SELECT incomplete, screen_name FROM social_users WHERE id = 404').get()).toEqual({ incomplete: 1, screen_name: '' });

    const row = db.prepare('SELECT * FROM posts WHERE id = 1600000000000000002').safeIntegers(true).get() as Record<string, unknown>;
    expect(row).toMatchObject({
      user_id: 9007199254740993n, full_text: '@vesna_v Counted 41 herons today #birding', favorite_count: 4n, views_count: 120n,
      retweet_count: 1n, in_reply_to_status_id: 1600000000000000001n, in_reply_to_screen_name: 'vesna_v',
      conversation_id: 1600000000000000001n, reply_depth: 1n, source: 'Twitter Web App',
      retrieved_at_ms: BigInt(Date.UTC(2022, 11, 7)),
    });
    const entities = JSON.parse(row.entities_json as string);
    expect(entities.hashtags).toEqual([{ text: 'birding', indices: [33, 41] }]);
    expect(entities.user_mentions).toEqual([{ id_str: '9007199254740993', name: 'Vesna Velmoor', screen_name: 'vesna_v', indices: [0, 8] }]);
    expect(JSON.parse(row.raw_json as string)).toMatchObject({ edit_history_tweet_ids: ['1600000000000000002'] });
    // The replied-to post came from includes.tweets.
    expect(db.prepare('SELECT full_text FROM posts WHERE id = 1600000000000000001').pluck().get()).toBe('The root post');
    const user = db.prepare('SELECT followers_count, friends_count, statuses_count, screen_name FROM social_users WHERE id = 9007199254740993').get();
    expect(user).toEqual({ followers_count: 11, friends_count: 20, statuses_count: 45, screen_name: 'vesna_v' });

    const again = await importPaths(db, [file]);
    expect([again.added, again.updated]).toEqual([0, 0]);
  });

  it('counts a post as added when the page repeats it in includes.tweets (twarc2 lookups do)', async () => {
    const { db } = testEngine();
    const post = { id: '1611077073803841538', text: 'Repeated in includes', author_id: '9007199254740993', created_at: '2023-01-05T19:00:00.000Z' };
    const page = { data: [post], includes: { users: [{ id: '9007199254740993', name: 'Vesna Velmoor', username: 'vesna_v' }], tweets: [post] }, __twarc: { retrieved_at: '2023-01-06T00:00:00+00:00' } };
    const repeated = join(tempDir(), 'lookup.jsonl');
    writeFileSync(repeated, JSON.stringify(page) + '\n');
    const report = await importPaths(db, [repeated]);
    expect([report.added, report.skipped]).toEqual([1, 0]);
  });
});
