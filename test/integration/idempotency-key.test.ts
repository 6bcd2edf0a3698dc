import { describe, expect, it } from 'vitest';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf } from '../../src/main/engine/ledger';
import { fund, OTHER_ID, socialUser, tweetJson, writeApiCorpus } from '../fixtures/api-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// The Idempotency-Key extension (docs/api.md): one charge per key and user, however often the
// request is repeated, even when the repeat's answer holds more items; the same key for another
// request is 409, a malformed key 422, both before anything is charged.

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const server = await startServer(engine);
  const { key, user } = createKey(engine, 'script');
  fund(engine, user.id);
  const spent = () => -balanceOf(engine.db, user.id).posted;
  const get = (path: string, idem?: string) => server.request(path, { key, headers: idem === undefined ? {} : { 'idempotency-key': idem } });
  return { engine, spent, get, userId: user.id };
}

const timeline = `/social/user/${OTHER_ID}/tweets`;

describe('Idempotency-Key on a metered read', () => {
  it('charges a repeated read once, also when the repeat brings more items than the first answer', async () => {
    const t = await setup();
    const base = t.spent();
    const first = await t.get(timeline, 'nightly-p1');
    expect(first.status).toBe(200);
    const firstItems = (first.json() as { tweets: unknown[] }).tweets.length;
    expect(t.spent() - base).toBe(firstItems);
    // A post arrives between the two tries: the page now holds one more.
    upsertTweet(t.engine.db, tweetJson('900000000000000077', socialUser(OTHER_ID)), { retrievedAtMs: t.engine.clock.nowMs() });
    const again = await t.get(timeline, 'nightly-p1');
    expect(again.status, again.text).toBe(200);
    expect((again.json() as { tweets: unknown[] }).tweets.length).toBe(firstItems + 1);
    expect(t.spent() - base).toBe(firstItems);
    // Without the key, the same read is charged again.
    await t.get(timeline);
    expect(t.spent() - base).toBe(2 * firstItems + 1);
  });

  it('refuses the same key for another request with 409, and a malformed key with 422, charging nothing', async () => {
    const t = await setup();
    expect((await t.get(timeline, 'k-1')).status).toBe(200);
    const base = t.spent();
    const other = await t.get('/social/user/1234567890123456789/tweets', 'k-1');
    expect(other.status).toBe(409);
    expect(other.json()).toEqual({ status: 'error', message: expect.stringMatching(/Idempotency-Key 'k-1' was first used for GET \/social\/user\/987654321\/tweets; use a new key/) });
    const bad = await t.get(timeline, 'two words');
    expect(bad.status).toBe(422);
    expect((bad.json() as { message: string }).message).toContain('Idempotency-Key');
    expect(t.spent()).toBe(base);
  });
});
