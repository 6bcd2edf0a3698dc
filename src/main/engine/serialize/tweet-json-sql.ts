// The spec's full Tweet object (section 2.1, detail shape: numeric ids included) as JSON text that
// SQLite writes itself: an SQL expression over `posts p JOIN social_users u ON u.id = p.user_id`.
// GET /social/tweets/<id> and statuses/show answer with it. It gives the same bytes as
// toJson(detailTweet(row)) and as tweet-json.ts (the jobs' writer), which a test holds over a
// seeded corpus and random rows.
//
// Why in SQL (bench/api, post details): reading the 38 columns into JS values (15 BigInts, 12
// strings) and writing them out again cost ~15 µs a post; one json_object() gives one string for
// ~10 µs, and ~13 µs less CPU per request in the whole server. SQLite writes 64-bit integers as
// their exact digits, escapes strings as JSON.stringify does (\b \f \n \r \t, \u00XX for other
// controls, U+2028 left as is) and keeps stored JSON fragments (entities, nested statuses) as
// their text, which our writers store canonical (stringifyExact).
//
// Rules kept from detailTweet: booleans from 0/1 integers; entities as the spec's four arrays in
// its order, [] for a missing or non-array member, all four [] when the stored text is not JSON;
// a nested status that is not valid JSON is null. Timestamps need years 0000 to 9999, which the
// importers guarantee (corpus/write/time.ts).

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` of integer microseconds, flooring before 1970 as isoMicros does. */
const isoMicros = (c: string) =>
  `(strftime('%Y-%m-%dT%H:%M:%S', (${c} - ((${c} % 1000000 + 1000000) % 1000000)) / 1000000, 'unixepoch')` +
  ` || printf('.%06dZ', (${c} % 1000000 + 1000000) % 1000000))`;
const bool = (c: string) => `iif(${c} <> 0, json('true'), json('false'))`;
const idText = (c: string) => `CAST(${c} AS TEXT)`;
const entity = (key: string) =>
  `iif(json_type(p.entities_json, '$.${key}') = 'array', json_extract(p.entities_json, '$.${key}'), json_array())`;
const nested = (c: string) => `iif(json_valid(${c}), json(${c}), NULL)`;

const USER_JSON = /* sql */ `json_object(
  'id', u.id, 'id_str', ${idText('u.id')}, 'name', u.name, 'screen_name', u.screen_name,
  'location', u.location, 'url', u.url, 'description', u.description,
  'protected', ${bool('u.protected')}, 'verified', ${bool('u.verified')},
  'followers_count', u.followers_count, 'friends_count', u.friends_count, 'listed_count', u.listed_count,
  'favourites_count', u.favourites_count, 'statuses_count', u.statuses_count,
  'created_at', ${isoMicros('u.created_at_us')}, 'profile_banner_url', u.profile_banner_url,
  'profile_image_url_https', u.profile_image_url_https, 'can_dm', ${bool('u.can_dm')})`;

const ENTITIES_JSON = /* sql */ `iif(json_valid(p.entities_json),
  json_object('user_mentions', ${entity('user_mentions')}, 'urls', ${entity('urls')},
    'hashtags', ${entity('hashtags')}, 'symbols', ${entity('symbols')}),
  json_object('user_mentions', json_array(), 'urls', json_array(), 'hashtags', json_array(), 'symbols', json_array()))`;

/** The detail Tweet's JSON text, one TEXT column; read it with safeIntegers or not, it is a string. */
export const DETAIL_TWEET_JSON = /* sql */ `json_object(
  'tweet_created_at', ${isoMicros('p.created_at_us')}, 'id', p.id, 'id_str', ${idText('p.id')}, 'text', NULL,
  'full_text', p.full_text, 'source', p.source, 'truncated', ${bool('p.truncated')},
  'in_reply_to_status_id', p.in_reply_to_status_id, 'in_reply_to_status_id_str', ${idText('p.in_reply_to_status_id')},
  'in_reply_to_user_id', p.in_reply_to_user_id, 'in_reply_to_user_id_str', ${idText('p.in_reply_to_user_id')},
  'in_reply_to_screen_name', p.in_reply_to_screen_name, 'user', ${USER_JSON},
  'quoted_status_id', p.quoted_status_id, 'quoted_status_id_str', ${idText('p.quoted_status_id')},
  'is_quote_status', ${bool('p.is_quote_status')},
  'quoted_status', ${nested('p.quoted_status_json')}, 'retweeted_status', ${nested('p.retweeted_status_json')},
  'quote_count', p.quote_count, 'reply_count', p.reply_count, 'retweet_count', p.retweet_count,
  'favorite_count', p.favorite_count, 'lang', p.lang, 'entities', ${ENTITIES_JSON},
  'views_count', p.views_count, 'bookmark_count', p.bookmark_count)`;
