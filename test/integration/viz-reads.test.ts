import { describe, expect, it } from 'vitest';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import type { Engine } from '../../src/main/engine/engine';
import type { ReplyShape } from '../../src/shared/contract';
import { replyShape } from '../../src/main/engine/reads/reply-shape';
import { testEngine } from '../helpers/engine';
import { prng } from '../helpers/prng';

// The pictures' reads (issue 16) on a real SQLite file: a user's top posts ('user.topPosts') and
// the reply tree's shape ('post.replyShape'). The expected values are worked out here from the
// rows, in JavaScript, independently of the SQL under test.

const handlersOf = (engine: Engine) => createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null }).handlers;

describe('user.topPosts', () => {
  it("lists a user's 5 most replied-to and most liked posts, as all their rows rank, with the replies the corpus holds", async () => {
    const engine = testEngine();
    seedCorpus(engine.db, { scale: 'small', seed: 5 });
    const h = handlersOf(engine);
    // The three users with the most posts (public accounts), each checked against all their rows.
    const users = engine.db
      .prepare('SELECT p.user_id FROM posts p JOIN social_users u ON u.id = p.user_id WHERE u.protected = 0 GROUP BY p.user_id ORDER BY count(*) DESC LIMIT 3')
      .safeIntegers(true)
      .pluck()
      .all() as bigint[];
    const all = engine.db.prepare('SELECT id, user_id, reply_count, favorite_count, in_reply_to_status_id FROM posts').safeIntegers(true).all() as {
      id: bigint; user_id: bigint; reply_count: bigint; favorite_count: bigint; in_reply_to_status_id: bigint | null;
    }[];
    const repliesTo = new Map<bigint, number>();
    for (const p of all) if (p.in_reply_to_status_id !== null) repliesTo.set(p.in_reply_to_status_id, (repliesTo.get(p.in_reply_to_status_id) ?? 0) + 1);
    for (const userId of users) {
      const mine = all.filter((p) => p.user_id === userId);
      const rank = (by: 'reply_count' | 'favorite_count') =>
        mine.filter((p) => p[by] > 0n).sort((a, b) => (a[by] !== b[by] ? (a[by] > b[by] ? -1 : 1) : a.id > b.id ? -1 : 1)).slice(0, 5).map((p) => String(p.id));
      const top = await h['user.topPosts']({ user_id: String(userId) });
      expect(top.most_replied.map((t) => t.tweet.id_str)).toEqual(rank('reply_count'));
      expect(top.most_liked.map((t) => t.tweet.id_str)).toEqual(rank('favorite_count'));
      expect(top.most_liked.length).toBe(5);
      for (const t of [...top.most_replied, ...top.most_liked]) expect(t.replies_in_corpus).toBe(repliesTo.get(BigInt(t.tweet.id_str)) ?? 0);
    }
    // The most replied-to post of the busiest user has replies stored: the second figure is not all zeros.
    const first = await h['user.topPosts']({ user_id: String(users[0]) });
    expect(first.most_replied.some((t) => t.replies_in_corpus > 0)).toBe(true);
  });

  it('answers 403 for a protected account, as its timeline does, 404 for an unknown user, 422 for a bad id', async () => {
    const engine = testEngine();
    seedCorpus(engine.db, { scale: 'small', seed: 5 });
    const h = handlersOf(engine);
    const locked = engine.db.prepare('SELECT id FROM social_users WHERE protected = 1 LIMIT 1').safeIntegers(true).pluck().get() as bigint;
    await expect(h['user.topPosts']({ user_id: String(locked) })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(h['user.topPosts']({ user_id: '1234' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(h['user.topPosts']({ user_id: 'abc' })).rejects.toMatchObject({ code: 'invalid' });
  });
});

// A reply tree written through the corpus's write path: `n` replies, each answering the root or an
// earlier reply (a seeded choice that favours recent ones, so the tree grows deep), one of them by
// a protected account, with public replies under it.
const ROOT = 1_870_000_000_000_000_000n;
const PROTECTED_USER = '8300000000000000099';

function writeTree(engine: Engine, n: number, seed: number): { parent: Map<bigint, bigint>; protectedIds: Set<bigint> } {
  const r = prng(seed);
  const ids: bigint[] = [ROOT];
  const parent = new Map<bigint, bigint>();
  const protectedIds = new Set<bigint>();
  const tweet = (id: bigint, replyTo: bigint | null, by: string, screen: string, isProtected = false) => ({
    id_str: String(id),
    tweet_created_at: new Date(Date.UTC(2025, 0, 1) + Number(id - ROOT) * 1000).toISOString().replace(/\.\d+Z$/, '.000000Z'),
    full_text: `post ${id - ROOT} by ${screen} with some words to cut at the hundred-and-fortieth character `.repeat(3),
    text: null,
    lang: 'en',
    user: { id_str: by, screen_name: screen, name: screen, created_at: '2020-01-01T00:00:00.000000Z', protected: isProtected },
    in_reply_to_status_id_str: replyTo === null ? null : String(replyTo),
    in_reply_to_user_id_str: null,
    in_reply_to_screen_name: null,
    quoted_status_id_str: null,
    is_quote_status: false,
    favorite_count: 0, retweet_count: 0, quote_count: 0, reply_count: 0,
    entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] },
  });
  engine.db.transaction(() => {
    upsertTweet(engine.db, tweet(ROOT, null, '8300000000000000001', 'rooted'), { retrievedAtMs: 1 });
    for (let i = 1; i <= n; i++) {
      const id = ROOT + BigInt(i);
      // Half the time one of the last 5 (deep chains), else any earlier post (wide levels).
      const to = r.chance(0.5) ? ids[Math.max(0, ids.length - 1 - r.int(5))]! : ids[r.int(ids.length)]!;
      const isProtected = i === 7;
      upsertTweet(engine.db, tweet(id, to, isProtected ? PROTECTED_USER : `83000000000000001${String(i % 50).padStart(2, '0')}`, isProtected ? 'locked' : `u${i % 50}`, isProtected), { retrievedAtMs: 1 });
      ids.push(id);
      parent.set(id, to);
      if (isProtected) protectedIds.add(id);
    }
    // Two public replies under the protected one: still in the tree, at their levels.
    for (const k of [1, 2]) {
      const id = ROOT + BigInt(n + k);
      upsertTweet(engine.db, tweet(id, ROOT + 7n, '8300000000000000002', 'after'), { retrievedAtMs: 1 });
      parent.set(id, ROOT + 7n);
    }
  })();
  return { parent, protectedIds };
}

/** Depth, direct replies, subtree size and levels below of every reply, from the parent links alone. */
function oracle(parent: Map<bigint, bigint>) {
  const children = new Map<bigint, bigint[]>();
  for (const [c, p] of parent) children.set(p, [...(children.get(p) ?? []), c]);
  const depth = new Map<bigint, number>();
  const size = new Map<bigint, number>();
  const below = new Map<bigint, number>();
  const walk = (id: bigint, d: number): void => {
    depth.set(id, d);
    let s = 1;
    let b = 0;
    for (const c of children.get(id) ?? []) {
      walk(c, d + 1);
      s += size.get(c)!;
      b = Math.max(b, below.get(c)! + 1);
    }
    size.set(id, s);
    below.set(id, b);
  };
  walk(ROOT, 0);
  return { children, depth, size, below };
}

/** The widths of a shape add up: under the root and every node drawn, its drawn children's sizes and the hidden ones' are its size less itself. */
function expectWidthsAddUp(shape: ReplyShape) {
  const byParent = new Map<string, { replies: number; posts: number }>();
  for (const n of shape.nodes) {
    const e = byParent.get(n.parent_id_str) ?? { replies: 0, posts: 0 };
    byParent.set(n.parent_id_str, { replies: e.replies + 1, posts: e.posts + n.size });
  }
  for (const h of shape.hidden) {
    const e = byParent.get(h.parent_id_str) ?? { replies: 0, posts: 0 };
    byParent.set(h.parent_id_str, { replies: e.replies + h.replies, posts: e.posts + h.posts });
  }
  for (const p of [shape.root, ...shape.nodes]) {
    expect(byParent.get(p.id_str) ?? { replies: 0, posts: 0 }, p.id_str).toEqual({ replies: p.replies, posts: p.size - 1 });
  }
}

describe('post.replyShape', () => {
  it('gives every reply its parent, level, direct replies and subtree size, exactly as the links say', async () => {
    const engine = testEngine();
    const { parent, protectedIds } = writeTree(engine, 400, 11);
    const { children, depth, size, below } = oracle(parent);
    const shape = await handlersOf(engine)['post.replyShape']({ id: String(ROOT) });
    expect(shape.total).toBe(parent.size);
    expect(shape.root).toMatchObject({ id_str: String(ROOT), screen_name: 'rooted', replies: children.get(ROOT)!.length, size: parent.size + 1 });
    expect(shape.nodes.length).toBe(parent.size);
    expect(shape.hidden).toEqual([]);
    const maxDepth = Math.max(...depth.values());
    expect(maxDepth).toBeGreaterThan(8);
    expect(shape.levels).toEqual(
      Array.from({ length: maxDepth }, (_, i) => {
        const at = [...depth].filter(([id, d]) => d === i + 1 && id !== ROOT).map(([id]) => id);
        return { depth: i + 1, replies: at.length, protected: at.filter((id) => protectedIds.has(id)).length };
      }),
    );
    for (const n of shape.nodes) {
      const id = BigInt(n.id_str);
      expect([n.parent_id_str, n.depth, n.replies, n.size, n.levels_below]).toEqual([String(parent.get(id)), depth.get(id), children.get(id)?.length ?? 0, size.get(id), below.get(id)]);
      expect(n.text.length).toBeLessThanOrEqual(140);
    }
    // Parents come before their children.
    const seen = new Set([String(ROOT)]);
    for (const n of shape.nodes) {
      expect(seen.has(n.parent_id_str)).toBe(true);
      seen.add(n.id_str);
    }
    // The protected account's reply is in the tree, without author or text; the public replies under it stay.
    const locked = shape.nodes.find((n) => n.id_str === String(ROOT + 7n))!;
    expect([locked.screen_name, locked.text, locked.replies]).toEqual([null, '', (children.get(ROOT + 7n) ?? []).length]);
    expect(locked.replies).toBeGreaterThanOrEqual(2);
    expect(shape.more_levels).toBe(false);
    expectWidthsAddUp(shape);
  });

  it('sends only the largest subtrees with their ancestors when there are too many, and counts the rest per parent', () => {
    const engine = testEngine();
    const { parent } = writeTree(engine, 400, 12);
    const { children, size, below } = oracle(parent);
    const shape = replyShape(engine.db, ROOT, { maxNodes: 40 });
    expect(shape.nodes.length).toBe(40);
    const sizes = [...parent.keys()].map((id) => size.get(id)!).sort((a, b) => b - a);
    // The 40 largest subtrees (the smallest sent is at least as large as any left out).
    expect(Math.min(...shape.nodes.map((n) => n.size))).toBeGreaterThanOrEqual(sizes[40]!);
    expect(shape.hidden.length).toBeGreaterThan(0);
    const sent = new Set(shape.nodes.map((n) => n.id_str));
    for (const h of shape.hidden) {
      const left = (children.get(BigInt(h.parent_id_str)) ?? []).filter((c) => !sent.has(String(c)));
      expect(h).toEqual({ parent_id_str: h.parent_id_str, replies: left.length, posts: left.reduce((n, c) => n + size.get(c)!, 0), levels_below: Math.max(...left.map((c) => below.get(c)!)) });
    }
    expectWidthsAddUp(shape);
  });

  it('says when its bounds cut the tree (levels, replies), and refuses an unknown post', async () => {
    const engine = testEngine();
    const { parent } = writeTree(engine, 300, 13);
    const { depth } = oracle(parent);
    const shallow = replyShape(engine.db, ROOT, { maxLevels: 3 });
    expect(shallow.levels.map((l) => l.depth)).toEqual([1, 2, 3]);
    expect(shallow.total).toBe([...depth].filter(([id, d]) => id !== ROOT && d <= 3).length);
    expect(shallow.more_levels).toBe(true);
    expect(replyShape(engine.db, ROOT, { maxReplies: 50 })).toMatchObject({ total: 50, more_levels: true });
    expect(replyShape(engine.db, ROOT, { maxReplies: parent.size })).toMatchObject({ total: parent.size, more_levels: false });
    // A reply's own page: its subtree only.
    const deep = [...depth].find(([, d]) => d === 2)![0];
    expect(replyShape(engine.db, deep).root.id_str).toBe(String(deep));
    await expect(handlersOf(engine)['post.replyShape']({ id: '1234' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
