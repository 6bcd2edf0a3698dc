import type { PostRow } from '../serialize/rows';

// The one SELECT that gives serialize/rows.ts's PostRow: a post with its author. Reads append
// their own WHERE/ORDER BY to POST_SELECT, the jobs' TweetRow adds two columns to POST_COLUMNS
// (both must read with safeIntegers(true)).

/** PostRow's columns over `posts p JOIN social_users u ON u.id = p.user_id`, in postRowOf's order. */
export const POST_COLUMNS = /* sql */ `p.id, p.user_id, p.created_at_us, p.full_text, p.source, p.truncated,
  p.in_reply_to_status_id, p.in_reply_to_user_id, p.in_reply_to_screen_name, p.quoted_status_id,
  p.is_quote_status, p.quote_count, p.reply_count, p.retweet_count, p.favorite_count, p.views_count,
  p.bookmark_count, p.lang, p.entities_json, p.quoted_status_json, p.retweeted_status_json,
  u.screen_name AS u_screen_name, u.name AS u_name, u.location AS u_location, u.url AS u_url,
  u.description AS u_description, u.protected AS u_protected, u.verified AS u_verified,
  u.followers_count AS u_followers_count, u.friends_count AS u_friends_count,
  u.listed_count AS u_listed_count, u.favourites_count AS u_favourites_count,
  u.statuses_count AS u_statuses_count, u.created_at_us AS u_created_at_us,
  u.profile_banner_url AS u_profile_banner_url, u.profile_image_url_https AS u_profile_image_url_https,
  u.can_dm AS u_can_dm`;

/** The FROM clause POST_COLUMNS (and serialize/tweet-json-sql.ts's expression) are written over. */
export const POST_FROM = /* sql */ `FROM posts p JOIN social_users u ON u.id = p.user_id`;

export const POST_SELECT = /* sql */ `SELECT ${POST_COLUMNS} ${POST_FROM}`;

// The SELECT's columns in order, for statements read in raw mode (arrays): better-sqlite3 builds
// a row object property by property, which for these 38 columns costs about as much as the query
// itself (measured: 20 rows 520 us CPU as objects, 260 us as arrays); one object literal of a
// fixed shape is cheap.
export function postRowOf(a: unknown[]): PostRow {
  return {
    id: a[0] as bigint,
    user_id: a[1] as bigint,
    created_at_us: a[2] as bigint,
    full_text: a[3] as string,
    source: a[4] as string,
    truncated: a[5] as bigint,
    in_reply_to_status_id: a[6] as bigint | null,
    in_reply_to_user_id: a[7] as bigint | null,
    in_reply_to_screen_name: a[8] as string | null,
    quoted_status_id: a[9] as bigint | null,
    is_quote_status: a[10] as bigint,
    quote_count: a[11] as bigint,
    reply_count: a[12] as bigint,
    retweet_count: a[13] as bigint,
    favorite_count: a[14] as bigint,
    views_count: a[15] as bigint,
    bookmark_count: a[16] as bigint,
    lang: a[17] as string,
    entities_json: a[18] as string,
    quoted_status_json: a[19] as string | null,
    retweeted_status_json: a[20] as string | null,
    u_screen_name: a[21] as string,
    u_name: a[22] as string,
    u_location: a[23] as string,
    u_url: a[24] as string | null,
    u_description: a[25] as string,
    u_protected: a[26] as bigint,
    u_verified: a[27] as bigint,
    u_followers_count: a[28] as bigint,
    u_friends_count: a[29] as bigint,
    u_listed_count: a[30] as bigint,
    u_favourites_count: a[31] as bigint,
    u_statuses_count: a[32] as bigint,
    u_created_at_us: a[33] as bigint,
    u_profile_banner_url: a[34] as string,
    u_profile_image_url_https: a[35] as string,
    u_can_dm: a[36] as bigint,
  };
}
