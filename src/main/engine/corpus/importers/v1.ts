import { isRecord } from '../write/json';

// Twitter API v1.1 statuses -> the service's Tweet (spec 2.1). Field names mostly agree; the
// differences: `created_at` (v1) is `tweet_created_at`; long posts keep their text and entities in
// `extended_tweet` (streaming) or `full_text` (tweet_mode=extended) instead of `text`; quoted and
// retweeted statuses are v1 objects themselves. Every other key passes through and lands in
// raw_json (place, coordinates, extended_entities, display_text_range, ...), so nothing is lost.

type Obj = Record<string, unknown>;

export function isV1Status(v: Obj): boolean {
  return typeof v.created_at === 'string' && v.tweet_created_at === undefined && isRecord(v.user) &&
    (typeof v.text === 'string' || typeof v.full_text === 'string' || isRecord(v.extended_tweet));
}

export function v1ToTweet(status: Obj, depth = 0): Obj {
  const ext = isRecord(status.extended_tweet) ? status.extended_tweet : undefined;
  const out: Obj = { ...status };
  delete out.created_at;
  out.tweet_created_at = status.created_at;
  out.full_text = (ext?.full_text as string | undefined) ?? (status.full_text as string | undefined) ?? status.text;
  // The v1 `text` is the (maybe truncated) 140-character form; kept in raw_json when it differs.
  if (out.text === out.full_text) out.text = null;
  if (ext && isRecord(ext.entities)) out.entities = ext.entities;
  if (ext) out.truncated = false;
  // A trimmed user (trim_user=true: id only) is stored as incomplete; when the status says it is
  // withheld because of its author, the author carries the countries as a v1.1 User would.
  const user = status.user as Obj;
  if (typeof user.screen_name !== 'string' && status.withheld_scope === 'user' && Array.isArray(status.withheld_in_countries)) {
    out.user = { ...user, withheld_in_countries: status.withheld_in_countries, withheld_scope: 'user' };
  }
  // Nested statuses once deep at most: v1 never nests further (a quote inside a retweet is one level).
  for (const key of ['quoted_status', 'retweeted_status'] as const) {
    const nested = status[key];
    if (isRecord(nested) && depth < 2 && isV1Status(nested)) out[key] = v1ToTweet(nested, depth + 1);
  }
  return out;
}
