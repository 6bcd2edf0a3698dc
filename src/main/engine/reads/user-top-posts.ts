import { fail } from '../errors';
import { timelineTweet, type JsonObject } from '../serialize/tweet';
import type { Db } from '../store/db';
import { POST_COLUMNS, postRowOf } from './post-select';

// A user's most replied-to and most liked posts (issue 16, the user's page). Each list is one
// statement: the user's posts read through their timeline index (posts_user_timeline, one range
// of it), the few with the largest counter kept by SQLite's sorter (a LIMIT 5 sort keeps five
// rows, not the range). The counters are the platform's (reply_count, favorite_count), so a post
// ranks as it does on the platform; beside each, the replies the corpus holds (posts_in_reply_to).

export const TOP_POSTS = 5;

export interface TopPostRow {
  tweet: JsonObject;
  replies_in_corpus: number;
}

const COUNTERS = { replies: 'reply_count', likes: 'favorite_count' } as const;

export function userTopPosts(db: Db, userId: bigint): { most_replied: TopPostRow[]; most_liked: TopPostRow[] } {
  const user = db.prepare('SELECT protected FROM social_users WHERE id = ?').safeIntegers(true).get(userId) as { protected: bigint } | undefined;
  if (!user) throw fail.notFound(`User ${userId} was not found.`);
  // As the timeline (reads/timeline.ts): a protected account's posts are not public.
  if (user.protected !== 0n) throw fail.forbidden(`User ${userId}'s profile is protected: its timeline is not available.`);
  return db.transaction(() => ({ most_replied: top(db, userId, 'replies'), most_liked: top(db, userId, 'likes') }))();
}

function top(db: Db, userId: bigint, by: keyof typeof COUNTERS): TopPostRow[] {
  const counter = COUNTERS[by];
  const rows = db
    .prepare(
      `SELECT ${POST_COLUMNS}, (SELECT count(*) FROM posts r INDEXED BY posts_in_reply_to WHERE r.in_reply_to_status_id = p.id) AS in_corpus
       FROM posts p INDEXED BY posts_user_timeline JOIN social_users u ON u.id = p.user_id
       WHERE p.user_id = ? AND p.${counter} > 0 ORDER BY p.${counter} DESC, p.id DESC LIMIT ?`,
    )
    .safeIntegers(true)
    .raw(true)
    .all(userId, TOP_POSTS) as unknown[][];
  return rows.map((a) => ({ tweet: timelineTweet(postRowOf(a)), replies_in_corpus: Number(a[a.length - 1] as bigint) }));
}
