import { describe, expect, it } from 'vitest';
import { checkInvariants, latestTransfersOf } from '../../src/main/engine/ledger';
import { getUpstreamConfig } from '../../src/main/engine/upstream';
import { PAGE_CURSOR_LENGTH } from '../../src/main/engine/upstream/pages';
import { ARTICLE_ID, AUTHOR_ID, DETAIL_ID, OTHER_ID, SPACE_ID } from '../fixtures/api-corpus';
import { cursorOf, expectBooksAgree, gatewayPair, pathsFor, withCursor, withoutCursor, type Pair } from '../helpers/upstream-gateway';

// Reads through Skein B with Skein A as its upstream (test/helpers/upstream-gateway.ts), for both
// profiles: 'spec' (B asks A's /social paths) and 'socialdata' (B asks A's /twitter paths, the real
// service's, and the client asks B on them too). A's answers are the truth B is compared with, A's
// ledger for B's key what B paid, and the tap in front of A what B asked. Faults, the budget and a
// revoked key: upstream-reads-faults.test.ts.

const PROFILES = [
  ['spec', '/social'],
  ['socialdata', '/twitter'],
] as const;

/** A's pages of a stream, followed with A's own cursors to the end. */
async function pagesOfA(p: Pair, first: string): Promise<string[]> {
  const pages: string[] = [];
  let r = await p.direct(first);
  for (;;) {
    expect(r.status).toBe(200);
    pages.push(r.text);
    const next = cursorOf(r.text);
    if (next === '' || pages.length > 10) return pages;
    r = await p.direct(withCursor(first, next));
  }
}

describe.each(PROFILES)('reads through the upstream, profile %s', (profile, prefix) => {
  const path = pathsFor(prefix);

  it("details, article, space and user profile come back as A gives them and fill B's corpus", async () => {
    const p = await gatewayPair({ profile });
    expect(p.b.db.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(0);
    const sourced = [
      [path.tweet(DETAIL_ID), 'upstream'],
      [path.article(ARTICLE_ID), 'upstream'],
      [path.space(SPACE_ID), 'upstream'],
      [path.user('user4321'), 'upstream'], // OTHER_ID's screen name
      [path.user(OTHER_ID), 'cache'], // the same user, just stored
      [path.user(AUTHOR_ID), 'cache'], // the author came with the post
    ] as const;
    const reads = sourced.map(([read]) => read);
    const answers: string[] = [];
    for (const [read, source] of sourced) {
      const r = await p.get(read);
      expect([read, r.status, r.source]).toEqual([read, 200, source]);
      expect(r.text).toBe((await p.direct(read)).text); // byte for byte, 19-digit ids included
      answers.push(r.text);
    }
    expect(p.tap.seen).toHaveLength(4);
    // What B fetched is in its corpus: offline, B answers the same from there alone.
    p.configure({ mode: 'offline' });
    for (const [i, read] of reads.entries()) {
      const r = await p.get(read);
      expect([read, r.status, r.source]).toEqual([read, 200, null]);
      expect(r.text).toBe(answers[i]);
    }
    expect(p.tap.seen).toHaveLength(4);
    expectBooksAgree(p);
  });

  it.each([
    ['tweets', (q: ReturnType<typeof pathsFor>) => q.timeline('tweets', AUTHOR_ID)],
    ['tweets-and-replies', (q: ReturnType<typeof pathsFor>) => q.timeline('tweets-and-replies', AUTHOR_ID)],
    ['search', (q: ReturnType<typeof pathsFor>) => q.search('mentions')],
  ])("%s: B's pages equal A's, and B's own cursors follow A's pages to an empty last page", async (_name, firstOf) => {
    const p = await gatewayPair({ profile });
    const first = firstOf(path);
    const truth = await pagesOfA(p, first);
    const ours: string[] = [];
    let r = await p.get(first);
    for (;;) {
      expect([r.status, r.source]).toEqual([200, 'upstream']);
      ours.push(r.text);
      const next = cursorOf(r.text);
      if (next === '' || ours.length > 10) break;
      expect(next).toHaveLength(PAGE_CURSOR_LENGTH); // B's own cursor, never A's
      r = await p.get(withCursor(first, next));
    }
    expect(ours.map(withoutCursor)).toEqual(truth.map(withoutCursor));
    expect(ours.at(-1)).toBe('{"next_cursor":"","tweets":[]}');
    expect(ours.length).toBeGreaterThan(1);
    for (const page of truth.slice(0, -1)) expect(p.answers.join('\n')).not.toContain(cursorOf(page));
    // one request to A a page, and the tweets are B's now
    expect(p.tap.seen).toHaveLength(truth.length);
    const ids = truth.flatMap((t) => (JSON.parse(t) as { tweets: { id_str: string }[] }).tweets.map((x) => x.id_str));
    const stored = p.b.db.prepare(`SELECT count(*) FROM posts WHERE id IN (${ids.join(',')})`).pluck().get();
    expect(stored).toBe(ids.length);
    expectBooksAgree(p);
  });

  it('a second read within the freshness window costs A nothing; past it, B fetches again', async () => {
    const p = await gatewayPair({ profile });
    const fresh = getUpstreamConfig(p.b.db)!.freshMs;
    // In this order, so that no read stores what a later one fetches (the pages hold DETAIL_ID and OTHER_ID's post).
    const reads = [
      ['post', path.tweet(DETAIL_ID)],
      ['article', path.article(ARTICLE_ID)],
      ['space', path.space(SPACE_ID)],
      ['user', path.user(OTHER_ID)],
      ['page', path.timeline('tweets', AUTHOR_ID)],
      ['page', path.search('mentions')],
    ] as const;
    for (const [kind, read] of reads) {
      const first = await p.get(read);
      expect([read, first.status, first.source]).toEqual([read, 200, 'upstream']);
      const asked = p.tap.seen.length;
      const paid = p.charged().length;
      const again = async (source: string) => {
        const r = await p.get(read);
        expect([read, r.status, r.source]).toEqual([read, 200, source]);
        expect(withoutCursor(r.text)).toBe(withoutCursor(first.text));
      };
      await again('cache');
      p.b.clock.advance(fresh[kind] - 1);
      await again('cache');
      expect([p.tap.seen.length, p.charged().length]).toEqual([asked, paid]); // A saw nothing, charged nothing
      p.b.clock.advance(1);
      await again('upstream');
      expect([p.tap.seen.length, p.charged().length]).toEqual([asked + 1, paid + 1]);
      await again('cache');
    }
    expectBooksAgree(p);
  });

  it('identical reads at the same moment share one request to A and one charge', async () => {
    const p = await gatewayPair({ profile });
    for (const read of [path.tweet(DETAIL_ID), path.user(OTHER_ID), path.timeline('tweets', AUTHOR_ID), path.search('mentions')]) {
      const asked = p.tap.seen.length;
      const paid = p.charged().length;
      const answers = await Promise.all([p.get(read), p.get(read), p.get(read)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(answers.map((r) => withoutCursor(r.text))).toEqual(Array(3).fill(withoutCursor(answers[0]!.text)));
      // One of them fetched; the others waited for it and were served what it stored.
      expect(answers.map((r) => r.source).sort()).toEqual(['cache', 'cache', 'upstream']);
      expect([read, p.tap.seen.length - asked, p.charged().length - paid]).toEqual([read, 1, 1]);
    }
    expectBooksAgree(p);
  });

  it("mode 'refresh' always fetches; mode 'offline' never asks A, and local reads still work", async () => {
    const p = await gatewayPair({ profile, mode: 'refresh' });
    const timeline = path.timeline('tweets-and-replies', AUTHOR_ID);
    for (let i = 0; i < 2; i++) {
      expect((await p.get(path.tweet(DETAIL_ID))).source).toBe('upstream');
      expect((await p.get(timeline)).source).toBe('upstream');
    }
    const page1 = await p.get(timeline);
    const page2 = await p.get(withCursor(timeline, cursorOf(page1.text)));
    expect([page2.source, page1.source]).toEqual(['upstream', 'upstream']);
    expect(p.tap.seen).toHaveLength(6);

    p.configure({ mode: 'offline' });
    const detail = await p.get(path.tweet(DETAIL_ID));
    expect([detail.status, detail.source]).toEqual([200, null]);
    expect(detail.text).toBe((await p.direct(path.tweet(DETAIL_ID))).text);
    // The first page is the local timeline (local cursor); an upstream page's cursor still leads to
    // the stored next page, and past what is stored it says so.
    const local = await p.get(timeline);
    expect([local.status, local.source]).toEqual([200, null]);
    expect(withoutCursor(local.text)).toBe(withoutCursor(page1.text));
    const stored = await p.get(withCursor(timeline, cursorOf(page1.text)));
    expect([stored.status, stored.source, stored.text]).toEqual([200, 'cache', page2.text]);
    const beyond = await p.get(withCursor(timeline, cursorOf(page2.text)));
    expect(beyond.status).toBe(422);
    expect(beyond.json()).toEqual({ status: 'error', message: expect.stringMatching(/'cursor'.*not stored.*offline/) });
    const missing = await p.get(path.article(ARTICLE_ID));
    expect(missing.status).toBe(404);
    expect(p.tap.seen).toHaveLength(6); // offline asked A nothing
    expectBooksAgree(p);
  });

  it("B's spend book has one line per answered request, what A charged, attributed to B's local user", async () => {
    const p = await gatewayPair({ profile });
    const other = p.addUser('second');
    await p.get(path.tweet(DETAIL_ID));
    await p.get(path.tweet(DETAIL_ID)); // cached: no line
    await p.get(path.space(SPACE_ID));
    await p.get(path.tweet('555')); // 404 at A: not answered, not billed
    const timeline = path.timeline('tweets', AUTHOR_ID);
    const page1 = await p.get(timeline); // 20 of the author's 21 posts that are not replies
    const page2 = await p.get(withCursor(timeline, cursorOf(page1.text))); // the 21st
    const page3 = await p.get(withCursor(timeline, cursorOf(page2.text))); // A's empty last page: billed 1
    expect(page3.text).toBe('{"next_cursor":"","tweets":[]}');
    await p.get(path.search('mentions'), other.key); // the second user's
    const lines = p.spend();
    expect(lines.map((l) => [l.items, l.apiUserId])).toEqual([
      [1, p.localUserId],
      [1, p.localUserId],
      [20, p.localUserId],
      [1, p.localUserId],
      [1, p.localUserId],
      [20, other.id],
    ]);
    expect(lines.map((l) => l.items)).toEqual(p.charged());
    expect(lines.reduce((sum, l) => sum + l.items, 0)).toBe(p.charged().reduce((sum, n) => sum + n, 0));
    // the lines name what was asked: every request A answered, none it refused
    expect(lines.map((l) => l.request)).toEqual(p.tap.seen.filter((u) => !u.includes('555')));
    // B's ledger holds the spend as its own account, each user's lines in that user's history,
    // none of them moving the user's credits
    expect(p.upstreamLedger(p.localUserId)).toEqual([1, 1, 20, 1, 1]);
    expect(p.upstreamLedger(other.id)).toEqual([20]);
    const accounts = p.b.db.prepare("SELECT kind, debits_posted, credits_posted FROM ledger_accounts WHERE kind LIKE 'upstream%' ORDER BY kind").all();
    expect(accounts).toEqual([
      { kind: 'upstream', debits_posted: 0, credits_posted: 44 },
      { kind: 'upstream_key', debits_posted: 44, credits_posted: 0 },
    ]);
    const upstreamLines = latestTransfersOf(p.b.db, other.id, 10).filter((t) => t.direction === 'upstream');
    expect(upstreamLines.map((t) => [t.amount, t.availableChange])).toEqual([[20, 0]]);
    expect(checkInvariants(p.b.db)).toEqual([]);
  });

  it('a page cursor used on another timeline or search, or altered, is a 422 naming cursor; nothing is sent', async () => {
    const p = await gatewayPair({ profile });
    const timeline = path.timeline('tweets', AUTHOR_ID);
    const cursor = cursorOf((await p.get(timeline)).text);
    const searchCursor = cursorOf((await p.get(path.search('mentions'))).text);
    const asked = p.tap.seen.length;
    const misuses = [
      [path.timeline('tweets-and-replies', AUTHOR_ID), cursor, 'another timeline or search'],
      [path.timeline('tweets', OTHER_ID), cursor, 'another timeline or search'],
      [path.search('mentions'), cursor, 'another timeline or search'],
      [path.search('other words'), searchCursor, 'another timeline or search'],
      [timeline, searchCursor, 'another timeline or search'],
      [timeline, `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`, 'altered'],
    ] as const;
    for (const [target, c, why] of misuses) {
      const r = await p.get(withCursor(target, c));
      expect([target, r.status]).toEqual([target, 422]);
      expect(r.json()).toEqual({ status: 'error', message: expect.stringContaining("Invalid parameter 'cursor'") });
      expect((r.json() as { message: string }).message).toContain(why);
    }
    expect(p.tap.seen).toHaveLength(asked);
  });

  it("what A does not hold is B's 404 with A's own words, and is not billed", async () => {
    const p = await gatewayPair({ profile });
    const misses = [
      [path.tweet('555'), 'Tweet 555 was not found'],
      [path.article(DETAIL_ID), 'carries no article'],
      [path.space('1ZZZZZZZZZZZZ'), 'Space 1ZZZZZZZZZZZZ was not found'],
      [path.user('555'), 'User 555 was not found'],
      [path.timeline('tweets', '555'), 'User 555 was not found'],
    ] as const;
    for (const [read, words] of misses) {
      const r = await p.get(read);
      expect([read, r.status]).toEqual([read, 404]);
      expect(r.json()).toEqual({ status: 'error', message: expect.stringContaining(words) });
      expect((r.json() as { message: string }).message).toMatch(/^The upstream refused .* \(HTTP 404\)/);
    }
    expect(p.tap.seen).toHaveLength(misses.length); // once each: a 404 is not retried
    expect([p.spend(), p.charged()]).toEqual([[], []]);
  });
});
