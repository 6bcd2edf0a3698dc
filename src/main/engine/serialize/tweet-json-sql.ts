// The spec's full Tweet object (section 2.1, detail shape: numeric ids included) as JSON text that
// SQLite writes itself: an SQL expression over `posts p JOIN social_users u ON u.id = p.user_id`.
// GET /social/tweets/<id> and statuses/show answer with it. It gives the same bytes as
// toJson(detailTweet(row)) and as tweet-json.ts (the jobs' writer), which a test holds over a
// seeded corpus and random rows.
//
// Why in SQL (bench/api, post details): reading the 38 columns into JS values (15 BigInts, 12
// strings) and writing them out again cost ~15 µs a post; one concat() of the members gives one
// string for ~9 µs, and ~13 µs less CPU per request in the whole server. SQLite writes 64-bit
// integers as their exact digits, json_quote escapes strings as JSON.stringify does (\b \f \n \r
// \t, \u00XX for other controls, U+2028 left as is), and stored JSON fragments (entities, nested
// statuses) keep their text, which our writers store canonical (stringifyExact).
//
// Rules kept from detailTweet: booleans from 0/1 integers; entities as the spec's four arrays in
// its order, [] for a missing or non-array member, all four [] when the stored text is not JSON;
// a nested status that is not valid JSON is null. Timestamps need years 0000 to 9999, which the
// importers guarantee (corpus/write/time.ts).

/** `"YYYY-MM-DDTHH:MM:SS.ffffffZ"` of integer microseconds, flooring before 1970 as isoMicros does. */
const isoMicros = (c: string) =>
  `concat('"', strftime('%Y-%m-%dT%H:%M:%S', (${c} - ((${c} % 1000000 + 1000000) % 1000000)) / 1000000, 'unixepoch'),` +
  ` printf('.%06dZ"', (${c} % 1000000 + 1000000) % 1000000))`;
// Each member's value as JSON text: strings through json_quote (null for NULL), integers as their
// digits, booleans from 0/1, `_str` ids quoted, stored fragments checked by json_valid.
const text = (c: string) => `json_quote(${c})`;
const int = (c: string) => `coalesce(${c}, 'null')`;
const bool = (c: string) => `iif(${c} <> 0, 'true', 'false')`;
const idText = (c: string) => `iif(${c} IS NULL, 'null', concat('"', ${c}, '"'))`;
const entity = (key: string) =>
  `iif(json_type(p.entities_json, '$.${key}') = 'array', json_extract(p.entities_json, '$.${key}'), '[]')`;
const nested = (c: string) => `iif(json_valid(${c}), json(${c}), 'null')`;

/**
 * A JSON object of the given members, in order, as one concat() into one buffer (json_object()
 * gave the same text 3 to 10% slower: it tags and re-reads each JSON-typed argument).
 */
const object = (members: [string, string][]) =>
  `concat('{', ${members.map(([key, value], i) => `'${i === 0 ? '' : ','}"${key}":', ${value}`).join(', ')}, '}')`;

const USER_MEMBERS: [string, string][] = [
  ['id', int('u.id')], ['id_str', idText('u.id')], ['name', text('u.name')], ['screen_name', text('u.screen_name')],
  ['location', text('u.location')], ['url', text('u.url')], ['description', text('u.description')],
  ['protected', bool('u.protected')], ['verified', bool('u.verified')],
  ['followers_count', int('u.followers_count')], ['friends_count', int('u.friends_count')], ['listed_count', int('u.listed_count')],
  ['favourites_count', int('u.favourites_count')], ['statuses_count', int('u.statuses_count')],
  ['created_at', isoMicros('u.created_at_us')], ['profile_banner_url', text('u.profile_banner_url')],
  ['profile_image_url_https', text('u.profile_image_url_https')], ['can_dm', bool('u.can_dm')],
];
const USER_JSON = object(USER_MEMBERS);

const ENTITY_KEYS = ['user_mentions', 'urls', 'hashtags', 'symbols'];
const ENTITIES_JSON = `iif(json_valid(p.entities_json), ${object(ENTITY_KEYS.map((k) => [k, entity(k)]))},
  '${JSON.stringify(Object.fromEntries(ENTITY_KEYS.map((k) => [k, []])))}')`;

/** The detail Tweet's members, in the spec's order; the timeline shape leaves the numeric ids out. */
const DETAIL_MEMBERS: [string, string][] = [
  ['tweet_created_at', isoMicros('p.created_at_us')], ['id', int('p.id')], ['id_str', idText('p.id')], ['text', `'null'`],
  ['full_text', text('p.full_text')], ['source', text('p.source')], ['truncated', bool('p.truncated')],
  ['in_reply_to_status_id', int('p.in_reply_to_status_id')], ['in_reply_to_status_id_str', idText('p.in_reply_to_status_id')],
  ['in_reply_to_user_id', int('p.in_reply_to_user_id')], ['in_reply_to_user_id_str', idText('p.in_reply_to_user_id')],
  ['in_reply_to_screen_name', text('p.in_reply_to_screen_name')], ['user', USER_JSON],
  ['quoted_status_id', int('p.quoted_status_id')], ['quoted_status_id_str', idText('p.quoted_status_id')],
  ['is_quote_status', bool('p.is_quote_status')],
  ['quoted_status', nested('p.quoted_status_json')], ['retweeted_status', nested('p.retweeted_status_json')],
  ['quote_count', int('p.quote_count')], ['reply_count', int('p.reply_count')], ['retweet_count', int('p.retweet_count')],
  ['favorite_count', int('p.favorite_count')], ['lang', text('p.lang')], ['entities', ENTITIES_JSON],
  ['views_count', int('p.views_count')], ['bookmark_count', int('p.bookmark_count')],
];

/** The detail Tweet's JSON text, one TEXT column; read it with safeIntegers or not, it is a string. */
export const DETAIL_TWEET_JSON = object(DETAIL_MEMBERS);

// The timeline shape (serialize/tweet.ts): `_str` ids only, in the Tweet, its User and its nested
// statuses. A stored nested status that is an object loses its numeric ids (and its user's `id`,
// when the user is an object), the rest of its text as stored; anything else is as in details.
const NUMERIC_IDS = ['id', 'in_reply_to_status_id', 'in_reply_to_user_id', 'quoted_status_id'];
const nestedTimeline = (c: string) =>
  `iif(json_valid(${c}), iif(json_type(${c}) = 'object', json_remove(${c}, ${[...NUMERIC_IDS.map((k) => `'$.${k}'`), `'$.user.id'`].join(', ')}), json(${c})), 'null')`;
const TIMELINE_USER_JSON = object(USER_MEMBERS.filter(([key]) => key !== 'id'));

/**
 * A timeline item's JSON text (spec 4.1/4.2): toJson(tweetObject(row, 'timeline')) byte for byte.
 * Why (bench/api, timeline pages on 10,000,000 posts): a page of 20 written by SQLite takes ~30%
 * less CPU than reading the 38 columns into objects and writing them with toJson, and leaves no
 * objects for the garbage collector.
 */
export const TIMELINE_TWEET_JSON = object(
  DETAIL_MEMBERS.filter(([key]) => !NUMERIC_IDS.includes(key)).map(([key, value]): [string, string] => {
    if (key === 'user') return [key, TIMELINE_USER_JSON];
    if (key === 'quoted_status') return [key, nestedTimeline('p.quoted_status_json')];
    if (key === 'retweeted_status') return [key, nestedTimeline('p.retweeted_status_json')];
    return [key, value];
  }),
);
