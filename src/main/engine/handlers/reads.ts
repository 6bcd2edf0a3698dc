import type { ArticleDetail, PostDetail, ReplyTree, SpaceDetail, TimelinePage, Tweet, TweetUser } from '../../../shared/contract';
import type { Engine } from '../engine';
import { fail } from '../errors';
import { readArticle, readSpace, readTimeline, readTweet, POST_SELECT } from '../reads';
import { findUserByRef, parseUserRef } from '../reads/user-profile';
import { toJson } from '../serialize';
import type { PostRow } from '../serialize/rows';
import { timelineTweet, userObject } from '../serialize/tweet';
import { readSearch } from '../search';
import { ensureArticle, ensurePost, ensureSpace, ensureUser, searchVia, timelineVia } from '../upstream/fetch-reads';
import { modeOf } from '../upstream/gateway';
import { APP_REQUESTER } from './app-user';
import { idArg, oneOf, optionalTextArg, record, textArg } from './validate';
import { jsonSafe } from './wire';

// The app's reads of the analyst's own corpus are free and not rate limited (credits and the limit
// meter API users: scripts). What bounds them is the size of one answer: a page of 20, a reply
// tree's caps below, a detail. With an upstream set (Settings > Sources), timelines, details, user
// lookups and a reply tree's newest page go through it as its mode says (upstream/fetch-reads.ts),
// booked as the app's spend;
// offline they stay synchronous local reads, exactly as before.

const viaUpstream = (engine: Engine) => modeOf(engine) !== 'offline';

// A reply tree shows at most this many posts per level (a viral post can have 100,000 replies;
// the full set is what a job is for), and walks at most this many levels and reply ids in all: the
// ids of every level are walked to count each level exactly, only the shown rows are read whole.
const REPLIES_PER_LEVEL = 1_000;
const MAX_LEVELS = 100;
const MAX_WALKED_IDS = 200_000;
// SQLite binds at most 32,766 parameters; chunks of 500 ids keep each IN list small.
const IN_CHUNK = 500;

export function timelinePage(engine: Engine, raw: unknown): TimelinePage | Promise<TimelinePage> {
  const args = record(raw);
  const userId = idArg(args, 'user_id');
  const kind = oneOf(args, 'kind', ['tweets', 'tweets-and-replies'] as const, 'tweets');
  const cursor = optionalTextArg(args, 'cursor', 1024);
  const local = () => readTimeline(engine, kind, userId, cursor);
  if (!viaUpstream(engine)) return pageOf(local().value);
  return timelineVia(engine, APP_REQUESTER, kind, userId, cursor, local).then(({ result }) => pageOf(result.value));
}

/** A page of the API's shape as the app's (no cursor after the last page), shared by timelines and search. */
export function pageOf(page: { next_cursor: string; tweets: unknown[] }): TimelinePage {
  return { next_cursor: page.next_cursor === '' ? null : page.next_cursor, tweets: jsonSafe<Tweet[]>(page.tweets) };
}

/** "@name", "name" or a numeric id -> the user (the nested User shape of 2.2, ids as strings). */
export function lookupUser(engine: Engine, raw: unknown): TweetUser | Promise<TweetUser> {
  const given = textArg(record(raw), 'user', 64).trim();
  // The same lookup as the API's profile (GET /twitter/user/...), but an author known only by id is
  // answered too: the app shows their posts under "unknown author".
  const find = () => {
    const row = findUserByRef(engine.db, parseUserRef(given));
    if (!row) throw fail.notFound(`User ${given} was not found.`);
    return jsonSafe<TweetUser>(userObject(row, 'timeline'));
  };
  if (!viaUpstream(engine)) return find();
  return ensureUser(engine, APP_REQUESTER, given).then(find);
}

export function postDetail(engine: Engine, raw: unknown): PostDetail | Promise<PostDetail> {
  const id = idArg(record(raw), 'id');
  const read = (): PostDetail => {
    const { value } = readTweet(engine, id);
    return { tweet: jsonSafe<Tweet>(value), raw_json: toJson(value) };
  };
  if (!viaUpstream(engine)) return read();
  return ensurePost(engine, APP_REQUESTER, id).then(read);
}

export function articleDetail(engine: Engine, raw: unknown): ArticleDetail | Promise<ArticleDetail> {
  const id = idArg(record(raw), 'id');
  const read = (): ArticleDetail => {
    const { value } = readArticle(engine, id);
    const safe = jsonSafe<ArticleDetail['tweet'] & { article: ArticleDetail['article'] }>(value);
    const { article, ...tweet } = safe;
    return { tweet, article, raw_json: toJson(value) };
  };
  if (!viaUpstream(engine)) return read();
  return ensureArticle(engine, APP_REQUESTER, id).then(read);
}

export function spaceDetail(engine: Engine, raw: unknown): SpaceDetail | Promise<SpaceDetail> {
  const args = record(raw);
  const id = textArg(args, 'id', 64).trim();
  const read = (): SpaceDetail => {
    const { value } = readSpace(engine, id);
    return { space: jsonSafe<SpaceDetail['space']>(value), raw_json: toJson(value) };
  };
  if (!viaUpstream(engine)) return read();
  return ensureSpace(engine, APP_REQUESTER, id).then(read);
}

/**
 * The replies under a post, level by level (1 = direct replies), following in_reply_to links so it
 * works for any post, not only a conversation's root. Each level is capped (REPLIES_PER_LEVEL);
 * `truncated` says so.
 */
export function replyTree(engine: Engine, raw: unknown): ReplyTree | Promise<ReplyTree> {
  const id = idArg(record(raw), 'id');
  if (!viaUpstream(engine)) return storedReplyTree(engine, id);
  // Through an upstream: the post, then the newest page of its conversation (the upstream's
  // search, as a reply job walks it; cached like any page, so reopening the post costs nothing
  // while it is fresh). The whole conversation is a reply job's work, not a page view's.
  return ensurePost(engine, APP_REQUESTER, id)
    .then(() => {
      const conversation = engine.db.prepare('SELECT conversation_id FROM posts WHERE id = ?').safeIntegers(true).pluck().get(BigInt(id)) as bigint | null;
      const query = `conversation_id:${conversation && conversation !== 0n ? conversation : BigInt(id)}`;
      return searchVia(engine, APP_REQUESTER, query, 'Latest', undefined, () => readSearch(engine, { query, type: 'Latest' }));
    })
    .then(() => storedReplyTree(engine, id));
}

function storedReplyTree(engine: Engine, id: string): ReplyTree {
  const root = BigInt(id);
  const exists = engine.db.prepare('SELECT 1 FROM posts WHERE id = ?').safeIntegers(true).get(root);
  if (!exists) throw fail.notFound(`Tweet ${id} was not found.`);
  const levels: ReplyTree['levels'] = [];
  let walked = 0;
  let parents: bigint[] = [root];
  let depth = 1;
  for (; depth <= MAX_LEVELS && parents.length > 0 && walked < MAX_WALKED_IDS; depth++) {
    const children: { id: bigint; protected: bigint }[] = [];
    for (let i = 0; i < parents.length && walked + children.length < MAX_WALKED_IDS; i += IN_CHUNK) {
      const chunk = parents.slice(i, i + IN_CHUNK);
      children.push(
        ...(engine.db
          .prepare(
            `SELECT p.id, u.protected FROM posts p JOIN social_users u ON u.id = p.user_id
             WHERE p.in_reply_to_status_id IN (${chunk.map(() => '?').join(',')})`,
          )
          .safeIntegers(true)
          .all(...chunk) as { id: bigint; protected: bigint }[]),
      );
    }
    if (children.length === 0) break;
    walked += children.length;
    // Protected accounts' replies are not shown (as in reply jobs), but the walk goes on through
    // them: a public reply to a protected one is still at its level.
    const shown = children.filter((c) => c.protected === 0n).map((c) => c.id).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    if (shown.length > 0) {
      const rows = postsByIds(engine, shown.slice(0, REPLIES_PER_LEVEL));
      levels.push({ depth, total: shown.length, tweets: jsonSafe<Tweet[]>(rows.map(timelineTweet)) });
    }
    parents = children.map((c) => c.id);
  }
  const moreLevels = parents.length > 0 && (depth > MAX_LEVELS || walked >= MAX_WALKED_IDS);
  return { root_id: id, levels, truncated: moreLevels || levels.some((l) => l.total > l.tweets.length), more_levels: moreLevels };
}

/** Whole rows of these posts, newest first (the order given). */
function postsByIds(engine: Engine, ids: bigint[]): PostRow[] {
  const rows: PostRow[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    const chunk = ids.slice(i, i + IN_CHUNK);
    rows.push(...(engine.db.prepare(`${POST_SELECT} WHERE p.id IN (${chunk.map(() => '?').join(',')})`).safeIntegers(true).all(...chunk) as PostRow[]));
  }
  return rows.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
