// The one SELECT that gives serialize/rows.ts's PostRow: a post with its author. Jobs and search
// append their own WHERE/ORDER BY to POST_SELECT (and must read with safeIntegers(true)).
export const POST_SELECT = /* sql */ `
SELECT p.id, p.user_id, p.created_at_us, p.full_text, p.source, p.truncated,
  p.in_reply_to_status_id, p.in_reply_to_user_id, p.in_reply_to_screen_name, p.quoted_status_id,
  p.is_quote_status, p.quote_count, p.reply_count, p.retweet_count, p.favorite_count, p.views_count,
  p.bookmark_count, p.lang, p.entities_json, p.quoted_status_json, p.retweeted_status_json,
  u.screen_name AS u_screen_name, u.name AS u_name, u.location AS u_location, u.url AS u_url,
  u.description AS u_description, u.protected AS u_protected, u.verified AS u_verified,
  u.followers_count AS u_followers_count, u.friends_count AS u_friends_count,
  u.listed_count AS u_listed_count, u.favourites_count AS u_favourites_count,
  u.statuses_count AS u_statuses_count, u.created_at_us AS u_created_at_us,
  u.profile_banner_url AS u_profile_banner_url, u.profile_image_url_https AS u_profile_image_url_https,
  u.can_dm AS u_can_dm
FROM posts p JOIN social_users u ON u.id = p.user_id`;
