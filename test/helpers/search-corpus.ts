import { upsertTweet } from '../../src/main/engine/corpus/write';
import type { Db } from '../../src/main/engine/store/db';

// A small, hand-made corpus for the search tests, written through the corpus helper's real write
// path (upsertTweet), so conversation ids, reply depths, entity tables and FTS are the store's own.
// Ids are 19 digits (beyond 2^53) to prove they never pass through a JS number.

export const BASE = 1_800_000_000_000_000_000n;
export const idOf = (n: number) => BASE + BigInt(n) * 1000n;

const USERS = {
  alice: { id_str: '9000000000000000001', screen_name: 'alice' },
  bob: { id_str: '9000000000000000002', screen_name: 'Bob' },
  carol: { id_str: '9000000000000000003', screen_name: 'carol' },
  dave: { id_str: '9000000000000000004', screen_name: 'dave_x' },
  // Protected: writes only PROTECTED_POSTS (writeProtectedPosts), so the corpus above is unchanged.
  eve: { id_str: '9000000000000000005', screen_name: 'eve', protected: true },
} as const;
type UserKey = keyof typeof USERS;

interface PostSpec {
  n: number;
  by: UserKey;
  day: string; // YYYY-MM-DDTHH:MM:SS
  text: string;
  lang?: string;
  replyTo?: number;
  quote?: number;
  hashtags?: string[];
  symbols?: string[];
  mentions?: UserKey[];
  urls?: string[];
  media?: boolean;
  counts?: { fav?: number; rt?: number; q?: number; rep?: number };
}

// Conversation of p1: p2 (depth 1) -> p3 (depth 2) -> p4 (depth 3); p7 is alice's self-reply.
export const POSTS: PostSpec[] = [
  { n: 1, by: 'alice', day: '2024-01-01T10:00:00', text: 'The quick brown fox', hashtags: ['Foxes'], counts: { fav: 10, rt: 1, rep: 2 } },
  { n: 2, by: 'bob', day: '2024-01-02T00:00:00', text: 'Quick reply about foxes', replyTo: 1, mentions: ['alice'] },
  { n: 3, by: 'carol', day: '2024-01-02T23:59:59', text: 'brown bears are not foxes', replyTo: 2 },
  { n: 4, by: 'alice', day: '2024-01-04T00:00:00', text: 'third level café', lang: 'fr', replyTo: 3 },
  { n: 5, by: 'bob', day: '2024-01-05T12:00:00', text: 'Buying $AAPL and $tsla today https://t.co/x', symbols: ['AAPL', 'tsla'], urls: ['https://example.com/stocks_100%'], counts: { fav: 100, rt: 5 } },
  { n: 6, by: 'carol', day: '2024-01-06T12:00:00', text: 'Look at this', lang: 'de', quote: 5, media: true, counts: { q: 1 } },
  { n: 7, by: 'alice', day: '2024-01-07T12:00:00', text: 'and another thing', replyTo: 1 },
  { n: 8, by: 'dave', day: '2024-01-08T12:00:00', text: 'Fox news is "quoted" here: OR AND NOT', hashtags: ['foxes', 'News'], mentions: ['bob', 'carol'], counts: { fav: 3, rt: 3, q: 3, rep: 3 } },
  { n: 9, by: 'bob', day: '2024-01-09T12:00:00', text: 'brown fox jumps', urls: ['https://Other.org/page'], counts: { fav: 21 } },
];

/**
 * Posts of the protected account eve, and public replies to them, written only by
 * writeProtectedPosts: words, tags and counters that would match many queries above (eve's p20
 * would top a Top search), so a leak shows. p21 replies to p1 (depth 1 in p1's conversation), p22
 * is bob's public reply to it (depth 2), p24 alice's public reply to eve's p20.
 */
export const PROTECTED_POSTS: PostSpec[] = [
  { n: 20, by: 'eve', day: '2024-01-10T12:00:00', text: 'brown fox in private', hashtags: ['foxes'], mentions: ['bob'], counts: { fav: 500, rt: 9, rep: 1 } },
  { n: 21, by: 'eve', day: '2024-01-10T13:00:00', text: 'quick private reply about foxes', replyTo: 1, mentions: ['alice'] },
  { n: 22, by: 'bob', day: '2024-01-10T14:00:00', text: 'public answer about the fox', replyTo: 21 },
  { n: 23, by: 'eve', day: '2024-01-10T15:00:00', text: 'private take on $AAPL', quote: 5, symbols: ['AAPL'], urls: ['https://example.com/eve'] },
  { n: 24, by: 'alice', day: '2024-01-10T16:00:00', text: 'replying to eve about the brown fox', replyTo: 20 },
];

/** Post number -> its 19-digit id, and back, for readable expectations. */
export const nameOfId = (id: bigint) => `p${(id - BASE) / 1000n}`;

function user(key: UserKey) {
  return { ...USERS[key], id_str: USERS[key].id_str, name: key, created_at: '2020-01-01T00:00:00.000000Z' };
}

export function tweetOf(p: PostSpec) {
  const replied = p.replyTo === undefined ? undefined : [...POSTS, ...PROTECTED_POSTS].find((q) => q.n === p.replyTo)!;
  return {
    id_str: String(idOf(p.n)),
    tweet_created_at: `${p.day}.000000Z`,
    full_text: p.text,
    text: null,
    lang: p.lang ?? 'en',
    user: user(p.by),
    in_reply_to_status_id_str: replied ? String(idOf(replied.n)) : null,
    in_reply_to_user_id_str: replied ? USERS[replied.by].id_str : null,
    in_reply_to_screen_name: replied ? USERS[replied.by].screen_name : null,
    quoted_status_id_str: p.quote === undefined ? null : String(idOf(p.quote)),
    is_quote_status: p.quote !== undefined,
    favorite_count: p.counts?.fav ?? 0,
    retweet_count: p.counts?.rt ?? 0,
    quote_count: p.counts?.q ?? 0,
    reply_count: p.counts?.rep ?? 0,
    entities: {
      hashtags: (p.hashtags ?? []).map((text) => ({ text, indices: [0, 1] })),
      symbols: (p.symbols ?? []).map((text) => ({ text, indices: [0, 1] })),
      user_mentions: (p.mentions ?? []).map((k) => ({ id_str: USERS[k].id_str, name: k, screen_name: USERS[k].screen_name, indices: [0, 1] })),
      urls: (p.urls ?? []).map((u) => ({ url: 'https://t.co/x', expanded_url: u, display_url: u, indices: [0, 1] })),
      ...(p.media ? { media: [{ type: 'photo', media_url_https: 'https://pbs.example/1.jpg' }] } : {}),
    },
  };
}

export function writeSearchCorpus(db: Db): void {
  db.transaction(() => {
    for (const p of POSTS) upsertTweet(db, tweetOf(p), { retrievedAtMs: 1 });
  })();
}

/** Adds PROTECTED_POSTS (after writeSearchCorpus). */
export function writeProtectedPosts(db: Db): void {
  db.transaction(() => {
    for (const p of PROTECTED_POSTS) upsertTweet(db, tweetOf(p), { retrievedAtMs: 1 });
  })();
}
