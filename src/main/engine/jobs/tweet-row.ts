import type { Db } from '../store/db';

// One post with its author, as the jobs read it from the store. Ids stay BigInt end to end
// (statements run with safeIntegers), so a 19-digit id is never rounded by a JS number.
export interface TweetRow {
  id: bigint;
  created_at_us: bigint;
  full_text: string;
  source: string;
  truncated: bigint;
  in_reply_to_status_id: bigint | null;
  in_reply_to_user_id: bigint | null;
  in_reply_to_screen_name: string | null;
  quoted_status_id: bigint | null;
  is_quote_status: bigint;
  quote_count: bigint;
  reply_count: bigint;
  retweet_count: bigint;
  favorite_count: bigint;
  views_count: bigint;
  bookmark_count: bigint;
  lang: string;
  entities_json: string;
  quoted_status_json: string | null;
  retweeted_status_json: string | null;
  conversation_id: bigint;
  reply_depth: bigint;
  u_id: bigint;
  u_name: string;
  u_screen_name: string;
  u_location: string;
  u_url: string | null;
  u_description: string;
  u_protected: bigint;
  u_verified: bigint;
  u_followers_count: bigint;
  u_friends_count: bigint;
  u_listed_count: bigint;
  u_favourites_count: bigint;
  u_statuses_count: bigint;
  u_created_at_us: bigint;
  u_profile_banner_url: string;
  u_profile_image_url_https: string;
  u_can_dm: bigint;
}

/** The select list of a TweetRow over `posts p JOIN social_users u ON u.id = p.user_id`. */
export const TWEET_ROW_COLUMNS = `p.id, p.created_at_us, p.full_text, p.source, p.truncated,
  p.in_reply_to_status_id, p.in_reply_to_user_id, p.in_reply_to_screen_name, p.quoted_status_id,
  p.is_quote_status, p.quote_count, p.reply_count, p.retweet_count, p.favorite_count, p.views_count,
  p.bookmark_count, p.lang, p.entities_json, p.quoted_status_json, p.retweeted_status_json,
  p.conversation_id, p.reply_depth,
  u.id AS u_id, u.name AS u_name, u.screen_name AS u_screen_name, u.location AS u_location, u.url AS u_url,
  u.description AS u_description, u.protected AS u_protected, u.verified AS u_verified,
  u.followers_count AS u_followers_count, u.friends_count AS u_friends_count, u.listed_count AS u_listed_count,
  u.favourites_count AS u_favourites_count, u.statuses_count AS u_statuses_count,
  u.created_at_us AS u_created_at_us, u.profile_banner_url AS u_profile_banner_url,
  u.profile_image_url_https AS u_profile_image_url_https, u.can_dm AS u_can_dm`;

const statements = new WeakMap<Db, ReturnType<Db['prepare']>>();

/** Reads full rows for the given post ids, keeping the order of `ids`. At most 1000 ids a call. */
export function loadTweetRows(db: Db, ids: readonly bigint[]): TweetRow[] {
  if (ids.length === 0) return [];
  if (ids.length > 1000) throw new Error(`loadTweetRows: ${ids.length} ids, at most 1000 a call`);
  let stmt = statements.get(db);
  if (!stmt) {
    // json_each drives the join (CROSS JOIN fixes that order): one primary-key probe per id. An
    // IN (subquery) form let the planner scan posts instead. json_each keeps 64-bit integers exact
    // when they are written as bare digits.
    stmt = db
      .prepare(`SELECT ${TWEET_ROW_COLUMNS} FROM json_each(?) AS j CROSS JOIN posts p ON p.id = j.value CROSS JOIN social_users u ON u.id = p.user_id`)
      .safeIntegers(true);
    statements.set(db, stmt);
  }
  const rows = stmt.all(`[${ids.join(',')}]`) as TweetRow[];
  // The nested loop returns the ids' order; a post deleted meanwhile is simply missing. Checked,
  // not assumed: SQL promises no order without ORDER BY (a sort here cost a temp B-tree per batch).
  let j = 0;
  for (const id of ids) {
    if (j < rows.length && rows[j]!.id === id) j++;
  }
  if (j === rows.length) return rows;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
