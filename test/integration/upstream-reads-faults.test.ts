import { describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/main/engine/keys';
import { getUpstreamConfig, UPSTREAM_WINDOW_MS } from '../../src/main/engine/upstream';
import { ARTICLE_ID, AUTHOR_ID, DETAIL_ID, OTHER_ID, SPACE_ID } from '../fixtures/api-corpus';
import { cursorOf, expectBooksAgree, gatewayPair, pathsFor, TEST_TIMEOUT_MS, withCursor, withoutCursor, type Pair } from '../helpers/upstream-gateway';

// Skein B reading through Skein A when things go wrong: B's budget, A rate limiting, failing and
// hanging (the tap in front of A stands in for the last two), and A refusing B's key. B must
// survive each: a stored copy is served ('stale'), otherwise the spec's error body with a 500 and
// a message saying what happened, after the bounded retries and never longer.

const PROFILES = [
  ['spec', '/social'],
  ['socialdata', '/twitter'],
] as const;

/** The rules (docs/decisions.md "Upstream: retries and limits"): 3 tries with 1 s then 2 s between them; 10 waits of a 429. */
const TRIES = 3;
const BACKOFFS = [1_000, 2_000];
const RATE_LIMITED_WAITS = 10;

/** B's answer is the spec's error body (section 2.7) with this status, its message matching. */
function expectError(r: { status: number; text: string }, status: number, message: RegExp | string): void {
  expect(r.status).toBe(status);
  const body = JSON.parse(r.text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['message', 'status']);
  expect(body.status).toBe('error');
  if (typeof message === 'string') expect(body.message).toContain(message);
  else expect(body.message).toMatch(message);
}

/** Reads each of `reads` once, so that B stores it; their answers. */
async function store(p: Pair, reads: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const read of reads) {
    const r = await p.get(read);
    expect([read, r.status, r.source]).toEqual([read, 200, 'upstream']);
    texts.push(r.text);
  }
  return texts;
}

/** Moves B's clock past every freshness: whatever B holds is stale. */
const age = (p: Pair) => p.b.clock.advance(Math.max(...Object.values(getUpstreamConfig(p.b.db)!.freshMs)));

describe.each(PROFILES)('reads through a troubled upstream, profile %s', (profile, prefix) => {
  const path = pathsFor(prefix);

  it('a budget smaller than a page refuses the page before anything is sent; a stored copy is still served', async () => {
    const p = await gatewayPair({ profile, budgetItems: 5 });
    const timeline = path.timeline('tweets', AUTHOR_ID);
    for (const read of [timeline, path.search('mentions')]) {
      const r = await p.get(read);
      expectError(r, 500, /budget allows 5 more items and this request may bring back 100: nothing was sent\. Raise it with 'skein upstream set --budget ITEMS' or in Settings > Sources\./);
    }
    expect(p.tap.seen).toEqual([]);
    // what fits is fetched, and counts against the budget
    expect((await p.get(path.tweet(DETAIL_ID))).source).toBe('upstream');
    expect(p.spend().map((l) => l.items)).toEqual([1]);

    // A budget that allows one page, not two (what it allows counts from when it was set): a page
    // holds the most a page may bring (100), whatever the upstream's usual page (20), so no page
    // can pass the budget.
    p.b.clock.advance(1);
    p.configure({ budgetItems: 105 });
    const replies = path.timeline('tweets-and-replies', AUTHOR_ID);
    const page1 = await p.get(replies);
    expect([page1.status, page1.source]).toEqual([200, 'upstream']);
    expectError(await p.get(withCursor(replies, cursorOf(page1.text))), 500, 'budget allows 85 more items and this request may bring back 100');

    // The first page, stored and then past its freshness, is served as it was.
    p.b.clock.advance(getUpstreamConfig(p.b.db)!.freshMs.page);
    const stale = await p.get(replies);
    expect([stale.status, stale.source]).toEqual([200, 'stale']);
    expect(withoutCursor(stale.text)).toBe(withoutCursor(page1.text));
    expect(p.tap.seen).toHaveLength(2);
    expectBooksAgree(p);
  });

  it("answers A's 429 with A's wait when it is longer than a read waits, or serves what it holds; then answers", async () => {
    const p = await gatewayPair({ profile });
    p.a.engine.db.prepare('UPDATE api_users SET per_minute_limit = 2 WHERE id = ?').run(p.a.userId);
    for (const read of [path.tweet(DETAIL_ID), path.article(ARTICLE_ID)]) {
      const r = await p.get(read);
      expect([read, r.status, r.source]).toEqual([read, 200, 'upstream']);
    }
    // A's window of 2 is full for a minute: longer than a read waits (READ_MAX_RATE_WAIT_MS), so
    // the read is answered at once with a 429 and the wait, which the SDKs scripts use sleep out.
    const space = path.space(SPACE_ID);
    const refused = await p.get(space);
    expectError(refused, 429, /^Fetching data from the upstream failed: The upstream at http:\/\/127\.0\.0\.1:\d+ is rate limiting \(HTTP 429\) for the next 60 s: Rate limit exceeded/);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('retry-after-ms')).toBe(String(UPSTREAM_WINDOW_MS));
    expect(p.sleeps).toEqual([]);
    // What B holds, past its freshness, is served as it was instead.
    age(p);
    const held = await p.get(path.tweet(DETAIL_ID));
    expect([held.status, held.source]).toEqual([200, 'stale']);
    expect(held.text).toBe((await p.direct(path.tweet(DETAIL_ID))).text);
    // Once A's window has room, the read is fetched.
    p.b.clock.advance(UPSTREAM_WINDOW_MS);
    p.a.engine.clock.advance(UPSTREAM_WINDOW_MS);
    const r = await p.get(space);
    expect([r.status, r.source]).toEqual([200, 'upstream']);
    expect(r.text).toBe((await p.direct(space)).text);
    expect(p.tap.seen).toHaveLength(5);
    expectBooksAgree(p); // the 429s were neither billed nor booked
    expect(p.spend()).toHaveLength(3);
    // B's own user was charged for the answers only: the 429 cost nothing.
    expect(p.b.db.prepare("SELECT count(*) FROM ledger_transfers WHERE kind = 'posted' AND debit_account_id IN (SELECT id FROM ledger_accounts WHERE user_id = ?)").pluck().get(p.localUserId)).toBe(4);
  });

  it.each([
    // the tap's 429 says Retry-After: 1 (seconds)
    ['keeps answering 429', '429' as const, `still rate limiting after ${RATE_LIMITED_WAITS} waits`, RATE_LIMITED_WAITS + 1, Array<number>(RATE_LIMITED_WAITS).fill(1_000)],
    ['answers 500', '500' as const, `HTTP 500 database on fire (${TRIES} tries)`, TRIES, BACKOFFS],
    ['never answers', 'hang' as const, `no complete answer within ${TEST_TIMEOUT_MS} ms (${TRIES} tries)`, TRIES, BACKOFFS],
  ])('when A %s, B serves what it holds as stale, and otherwise a 500 saying so', async (_name, fault, words, tries, waits) => {
    const p = await gatewayPair({ profile });
    const timeline = path.timeline('tweets', AUTHOR_ID);
    const search = path.search('mentions');
    // Nothing stored: the spec's 500 naming the failure, after the bounded tries, for each kind of read.
    p.failAs(fault);
    for (const read of [path.tweet(DETAIL_ID), path.user(OTHER_ID), path.timeline('tweets', OTHER_ID), search]) {
      const asked = p.tap.seen.length;
      p.sleeps.length = 0;
      const r = await p.get(read);
      expectError(r, 500, `Fetching data from the upstream failed: The upstream at http://127.0.0.1:`);
      expectError(r, 500, words);
      expect([read, p.tap.seen.length - asked]).toEqual([read, tries]);
      expect(p.sleeps).toEqual(waits);
    }

    // Stored, then past its freshness: served as it was, marked stale; a page after the first too.
    p.failAs('none');
    const reads = [path.tweet(DETAIL_ID), path.space(SPACE_ID), timeline, search];
    const stored = await store(p, reads);
    reads.push(withCursor(timeline, cursorOf(stored[2]!)));
    stored.push(...(await store(p, reads.slice(-1))));
    age(p);
    p.failAs(fault);
    for (const [i, read] of reads.entries()) {
      const r = await p.get(read);
      expect([read, r.status, r.source]).toEqual([read, 200, 'stale']);
      expect(withoutCursor(r.text)).toBe(withoutCursor(stored[i]!));
    }
    // A timeline B holds no page of, but some posts of (DETAIL_ID is AUTHOR_ID's): those, stale.
    const held = await p.get(path.timeline('tweets-and-replies', AUTHOR_ID));
    expect([held.status, held.source]).toEqual([200, 'stale']);
    expect((JSON.parse(held.text) as { tweets: unknown[] }).tweets.length).toBeGreaterThan(0);

    // And when A is well again, B fetches again.
    p.failAs('none');
    expect((await p.get(path.tweet(DETAIL_ID))).source).toBe('upstream');
    expectBooksAgree(p);
  });

  it("a revoked key is a 500 saying A refused it, the key is marked invalid, and the key is nowhere in B's answers or files", async () => {
    const p = await gatewayPair({ profile });
    const [detail] = await store(p, [path.tweet(DETAIL_ID)]);
    age(p);
    expect(getUpstreamConfig(p.b.db)!.keyStatus).toBe('valid');
    revokeKey(p.a.engine, p.a.key);

    const asked = p.tap.seen.length;
    for (const read of [path.article(ARTICLE_ID), path.timeline('tweets', OTHER_ID), path.user(OTHER_ID)]) {
      expectError(await p.get(read), 500, /^Fetching data from the upstream failed: The upstream refused the API key \(HTTP 401\)/);
    }
    expect(p.tap.seen.length - asked).toBe(3); // a refused key is not retried
    expect(p.sleeps).toEqual([]);
    const config = getUpstreamConfig(p.b.db)!;
    expect(config.keyStatus).toBe('invalid');
    expect(config.keyMessage).toContain('HTTP 401');
    // what B holds is still served
    const stale = await p.get(path.tweet(DETAIL_ID));
    expect([stale.status, stale.source, stale.text]).toEqual([200, 'stale', detail]);

    expect(p.answers.length).toBeGreaterThan(0);
    for (const answer of p.answers) expect(answer).not.toContain(p.a.key);
    expect(p.dbHolds(p.a.key)).toBe(false);
    expect(p.dbHolds(p.a.key.slice(-12))).toBe(false);
  });
});
