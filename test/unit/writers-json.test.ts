import { describe, expect, it } from 'vitest';
import { loadTweetRows } from '../../src/main/engine/jobs/tweet-row';
import { detailTweetJson } from '../../src/main/engine/serialize/tweet-json';
import { readTweet } from '../../src/main/engine/reads';
import { toJson } from '../../src/main/engine/serialize';
import { testEngine } from '../helpers/engine';
import { writeConversation } from '../fixtures/jobs-corpus';

// A JSON data file row is the very Tweet that GET /social/tweets/<id> answers (detail shape),
// plus wallet_address in reply jobs.

describe('json rows', () => {
  it('are byte for byte the API\'s detail Tweet', () => {
    const engine = testEngine();
    const convo = writeConversation(engine.db, 8, 2);
    const ids = [...convo.level1, ...convo.level2];
    const rows = loadTweetRows(engine.db, ids);
    expect(rows.map((r) => r.id)).toEqual(ids);
    for (const row of rows) expect(detailTweetJson(row)).toBe(toJson(readTweet(engine, String(row.id)).value));
    const withWallet = detailTweetJson(rows[0]!, 'abc');
    expect(withWallet.endsWith(',"wallet_address":"abc"}')).toBe(true);
  });

  it('keep the order asked for, and skip posts that no longer exist', () => {
    const engine = testEngine();
    const convo = writeConversation(engine.db, 5, 0);
    const ids = [convo.level1[3]!, 42n, convo.level1[0]!, convo.level1[4]!];
    expect(loadTweetRows(engine.db, ids).map((r) => r.id)).toEqual([convo.level1[3], convo.level1[0], convo.level1[4]]);
  });
});
