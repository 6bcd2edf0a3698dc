import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPaths } from '../../src/main/engine/corpus/importers';
import { REASON_UNCHANGED } from '../../src/main/engine/corpus/importers/report';
import { testEngine } from '../helpers/engine';

const file = join(__dirname, '..', 'fixtures', 'corpus', 'v1-statuses.jsonl');
type Row = Record<string, unknown>;

describe('import: Twitter API v1.1 JSON Lines', () => {
  it('lets the event loop turn between records of one chunk, so the app and the API answer while the app imports', async () => {
    // The fixture is one read chunk: without the yield its records arrive as microtasks and
    // nothing else runs until the file is done (the app's import shares the thread with the API).
    // A batch per record, and at every turn of the event loop the posts written so far: turns
    // between the records see the counts in between.
    const { db } = testEngine();
    const seen = new Set<number>();
    let done = false;
    const look = () => {
      if (done) return;
      seen.add(db.prepare('SELECT count(*) FROM posts').pluck().get() as number);
      setImmediate(look);
    };
    setImmediate(look);
    const report = await importPaths(db, [file], { batchSize: 1, yieldEveryMs: 0 });
    done = true;
    expect(report.added).toBe(4);
    expect([...seen].filter((n) => n > 0 && n < 4).length).toBeGreaterThan(0);
  });

  it('imports statuses, reports bad lines with file and line, and skips the rest of nothing', async () => {
    const { db } = testEngine();
    const report = await importPaths(db, [file]);
    expect(report.files).toEqual([{ file, format: 'Twitter API v1.1 (JSON Lines)', records: 8 }]);
    expect(report.added).toBe(4);
    expect(report.updated).toBe(0);
    expect(report.skippedReasons).toEqual({
      "v1.1 stream notice ('delete'), not a post": 1,
      'invalid record': 2,
      'malformed JSON': 1,
    });
    expect(report.problems.map((p) => [p.line, p.message.slice(0, 40)])).toEqual([
      [6, 'a v1.1 status without its user object: w'],
      [7, expect.stringMatching(/^malformed JSON: /)],
      [8, "tweet_created_at: unreadable timestamp '"],
    ]);
    expect(report.problems.every((p) => p.file === file)).toBe(true);

    const post = (id: bigint) => db.prepare('SELECT * FROM posts WHERE id = ?').safeIntegers(true).get(id) as Row;
    // extended_tweet gives the full text and its entities; unmodelled fields are kept.
    const long = post(1050118621198921728n);
    expect(long.full_text).toMatch(/^An extended post .* \$ZEPH too$/);
    expect(long.truncated).toBe(0n);
    expect(JSON.parse(long.raw_json as string)).toMatchObject({ place: { full_name: 'Vellmar' }, filter_level: 'low', timestamp_ms: '1539202764000' });
    expect(db.prepare('SELECT symbol FROM post_symbols WHERE post_id = ?').pluck().all(1050118621198921728n)).toEqual(['zeph']);
    // Numeric ids only, above 2^53: exact digits, placed under its parent.
    const reply = post(1050128880458297345n);
    expect(reply).toMatchObject({ user_id: 9007199254740995n, in_reply_to_status_id: 1050118621198921728n, conversation_id: 1050118621198921728n, reply_depth: 1n });
    expect(JSON.parse(post(1050143979512287233n).retweeted_status_json as string).id_str).toBe('1050118621198921728');
    expect(post(1050295000000000001n)).toMatchObject({ is_quote_status: 1n, quoted_status_id: 1050128880458297345n });
    // The retweet embeds an older copy of the original: the original's own line wins.
    expect(post(1050118621198921728n).retweet_count).toBe(2n);
  });

  it('is idempotent: a second import adds nothing and updates nothing', async () => {
    const { db } = testEngine();
    await importPaths(db, [file]);
    const count = () => db.prepare('SELECT (SELECT count(*) FROM posts) || \'/\' || (SELECT count(*) FROM social_users) || \'/\' || (SELECT count(*) FROM post_hashtags)').pluck().get();
    const before = count();
    const again = await importPaths(db, [file]);
    expect(again.added).toBe(0);
    expect(again.updated).toBe(0);
    expect(again.skippedReasons[REASON_UNCHANGED]).toBe(4);
    expect(count()).toBe(before);
  });
});
