import { parseJsonExact, withBigIntMembers } from './json';
import { type AuthorRow, bool, count, type PostRow, str } from './rows';
import { isoMicros, isoOffset } from './timestamps';

/**
 * Which response a Tweet goes into (spec 2.1):
 * - timeline: `_str` ids only, microsecond timestamps;
 * - detail:   adds the numeric ids (exact integers, BigInt), microsecond timestamps;
 * - article:  detail plus `entities.timestamps`, `+00:00` timestamps (the article fields are added
 *             by articleDetail).
 */
export type TweetShape = 'timeline' | 'detail' | 'article';

export type JsonObject = Record<string, unknown>;

/** The nested User (2.2), in the spec's field order; also the profile of GET /twitter/user/<id> (detail shape). */
export function userObject(row: AuthorRow, shape: TweetShape): JsonObject {
  const user: JsonObject = {};
  if (shape !== 'timeline') withBigIntMembers(user).id = row.user_id;
  user.id_str = row.user_id.toString();
  user.name = row.u_name;
  user.screen_name = row.u_screen_name;
  user.location = row.u_location;
  user.url = row.u_url;
  user.description = row.u_description;
  user.protected = bool(row.u_protected);
  user.verified = bool(row.u_verified);
  user.followers_count = count(row.u_followers_count);
  user.friends_count = count(row.u_friends_count);
  user.listed_count = count(row.u_listed_count);
  user.favourites_count = count(row.u_favourites_count);
  user.statuses_count = count(row.u_statuses_count);
  user.created_at = shape === 'article' ? isoOffset(row.u_created_at_us) : isoMicros(row.u_created_at_us);
  user.profile_banner_url = row.u_profile_banner_url;
  user.profile_image_url_https = row.u_profile_image_url_https;
  user.can_dm = bool(row.u_can_dm);
  return user;
}

/** A stored JSON column, exact (big integers stay BigInt); a damaged value reads as `fallback`. */
export function storedJson(text: string | null, fallback: unknown): unknown {
  if (text === null || text === '') return fallback;
  try {
    return parseJsonExact(text);
  } catch {
    return fallback;
  }
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Entities (2.3) in the spec's order, each an array (empty when absent); `timestamps` only in
 * article details. Elements are passed on as stored (the service's own shapes); keys the spec does
 * not list (e.g. `media`) are left out, so every response has the same four or five keys.
 */
export function entitiesObject(entitiesJson: string, shape: TweetShape): JsonObject {
  const stored = storedJson(entitiesJson, {});
  const e = (stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {}) as JsonObject;
  const out: JsonObject = {
    user_mentions: asArray(e.user_mentions),
    urls: asArray(e.urls),
    hashtags: asArray(e.hashtags),
    symbols: asArray(e.symbols),
  };
  if (shape === 'article') out.timestamps = asArray(e.timestamps);
  return out;
}

const NUMERIC_IDS = ['id', 'in_reply_to_status_id', 'in_reply_to_user_id', 'quoted_status_id'];

/**
 * A stored quoted or retweeted status (the spec shows only null; its shape is "not shown"): given
 * as stored, except that in timelines its numeric ids are left out like the outer tweet's, so a
 * timeline never carries an id that a double would round.
 */
function nestedStatus(text: string | null, shape: TweetShape): unknown {
  const v = storedJson(text, null);
  if (shape !== 'timeline' || !v || typeof v !== 'object' || Array.isArray(v)) return v;
  const out = { ...(v as JsonObject) };
  for (const k of NUMERIC_IDS) delete out[k];
  const user = out.user;
  if (user && typeof user === 'object' && !Array.isArray(user)) {
    const u = { ...(user as JsonObject) };
    delete u.id;
    out.user = u;
  }
  return out;
}

/**
 * The Tweet (2.1) in the spec's field order. `wallet_address` is the jobs writer's to add. `users`
 * (optional) shares one User object among the tweets of one response that have the same author and
 * shape (a timeline page): built once, written the same.
 */
export function tweetObject(row: PostRow, shape: TweetShape, users?: Map<bigint, JsonObject>): JsonObject {
  const detail = shape !== 'timeline';
  const t: JsonObject = {};
  if (detail) withBigIntMembers(t);
  t.tweet_created_at = shape === 'article' ? isoOffset(row.created_at_us) : isoMicros(row.created_at_us);
  if (detail) t.id = row.id;
  t.id_str = row.id.toString();
  t.text = null;
  t.full_text = row.full_text;
  t.source = row.source;
  t.truncated = bool(row.truncated);
  if (detail) t.in_reply_to_status_id = row.in_reply_to_status_id;
  t.in_reply_to_status_id_str = str(row.in_reply_to_status_id);
  if (detail) t.in_reply_to_user_id = row.in_reply_to_user_id;
  t.in_reply_to_user_id_str = str(row.in_reply_to_user_id);
  t.in_reply_to_screen_name = row.in_reply_to_screen_name;
  let user = users?.get(row.user_id);
  if (!user) {
    user = userObject(row, shape);
    users?.set(row.user_id, user);
  }
  t.user = user;
  if (detail) t.quoted_status_id = row.quoted_status_id;
  t.quoted_status_id_str = str(row.quoted_status_id);
  t.is_quote_status = bool(row.is_quote_status);
  t.quoted_status = nestedStatus(row.quoted_status_json, shape);
  t.retweeted_status = nestedStatus(row.retweeted_status_json, shape);
  t.quote_count = count(row.quote_count);
  t.reply_count = count(row.reply_count);
  t.retweet_count = count(row.retweet_count);
  t.favorite_count = count(row.favorite_count);
  t.lang = row.lang;
  t.entities = entitiesObject(row.entities_json, shape);
  t.views_count = count(row.views_count);
  t.bookmark_count = count(row.bookmark_count);
  return t;
}

/** Timeline item: `_str` ids only. */
export const timelineTweet = (row: PostRow): JsonObject => tweetObject(row, 'timeline');

/** Post details (4.3), and the full Tweet the jobs' JSON output writes: numeric ids included. */
export const detailTweet = (row: PostRow): JsonObject => tweetObject(row, 'detail');
