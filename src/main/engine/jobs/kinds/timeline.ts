import type { Statement } from 'better-sqlite3';
import { fail } from '../../errors';
import type { Db } from '../../store/db';
import type { TimelineKind, TimelineParams } from '../params';
import type { RowSource } from './source';

/**
 * A timeline job (issue 15; our extension): the user's posts, newest first, exactly the rows the
 * timeline reads page (spec 4.1 posts that are not replies, 4.2 all), walked by a keyset on the
 * post id: the checkpoint cursor is the last id written, as decimal digits, and the next batch
 * starts below it. A resumed job therefore continues after its last committed row, and a post
 * imported meanwhile above the cursor is not written twice (it is newer than the walk's start).
 */

const INT64_MAX = 9223372036854775807n;

interface Statements {
  page: Record<TimelineKind, Statement>;
  count: Record<TimelineKind, Statement>;
  user: Statement;
}

const cache = new WeakMap<Db, Statements>();

function statementsOf(db: Db): Statements {
  let s = cache.get(db);
  if (!s) {
    // The same WHERE forms as the reads' timeline statements (reads/statements.ts): one range scan
    // of posts_user_timeline, or of the partial index posts_user_tweets, no sort.
    const page = (replies: string) =>
      db.prepare(`SELECT p.id FROM posts p WHERE p.user_id = ?${replies} AND p.id <= ? ORDER BY p.id DESC LIMIT ?`).safeIntegers(true).pluck();
    const count = (replies: string) =>
      db.prepare(`SELECT count(*) FROM (SELECT 1 FROM posts p WHERE p.user_id = ?${replies} LIMIT ?)`).pluck();
    const noReplies = ' AND p.in_reply_to_status_id IS NULL';
    s = {
      page: { tweets: page(noReplies), 'tweets-and-replies': page('') },
      count: { tweets: count(noReplies), 'tweets-and-replies': count('') },
      user: db.prepare('SELECT id, protected, statuses_count FROM social_users WHERE id = ?').safeIntegers(true),
    };
    cache.set(db, s);
  }
  return s;
}

export interface TimelineUser {
  id: bigint;
  protected: bigint;
  statuses_count: bigint;
}

/**
 * The user a timeline job names, as the timeline reads find it: 404 unknown, 403 protected (spec
 * 7: "the user's profile is protected" applies to timelines), with the reads' own words.
 */
export function timelineUser(db: Db, userId: bigint): TimelineUser {
  const user = statementsOf(db).user.get(userId) as TimelineUser | undefined;
  if (!user) throw fail.notFound(`User ${userId} was not found.`);
  if (user.protected !== 0n) throw fail.forbidden(`User ${userId}'s profile is protected: its timeline is not available.`);
  return user;
}

/** The posts of the timeline the corpus holds, counted up to `cap` (an index range count). */
export function countTimeline(db: Db, userId: bigint, kind: TimelineKind, cap: number): number {
  return statementsOf(db).count[kind].get(userId, cap) as number;
}

export function timelineSource(db: Db, params: TimelineParams): RowSource {
  const userId = BigInt(params.user_id);
  const s = statementsOf(db);
  return {
    next(cursor, limit) {
      // Checked per page: an account made protected while the job runs (an import) ends the job
      // with the reason, as the timeline read would answer, rather than writing its posts.
      timelineUser(db, userId);
      const upTo = cursor === null ? INT64_MAX : BigInt(cursor) - 1n;
      const ids = s.page[params.timeline].all(userId, upTo, limit) as bigint[];
      const last = ids[ids.length - 1];
      // A page shorter than asked is the end of the timeline.
      return { ids, cursor: last === undefined || ids.length < limit ? null : last.toString() };
    },
  };
}
