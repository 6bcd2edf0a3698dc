import { isRecord } from '../write/json';

// Twitter API v2 response pages as twarc2 writes them (one page per line: data, includes, meta,
// __twarc) -> the service's Tweets. Authors and referenced tweets come from `includes`; metrics
// from public_metrics; entities are renamed to the v1/service names with [start, end] indices.

type Obj = Record<string, unknown>;

export function isV2Page(v: Obj): boolean {
  return (v.data !== undefined || Array.isArray(v.errors)) && (isRecord(v.includes) || isRecord(v.meta) || isRecord(v.__twarc) || Array.isArray(v.errors));
}

const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isRecord) : []);

function indices(e: Obj): [unknown, unknown] {
  return [e.start, e.end];
}

function entities(t: Obj, usersById: Map<string, Obj>): Obj {
  const e = isRecord(t.entities) ? t.entities : {};
  return {
    hashtags: arr(e.hashtags).map((h) => ({ text: h.tag, indices: indices(h) })),
    symbols: arr(e.cashtags).map((h) => ({ text: h.tag, indices: indices(h) })),
    user_mentions: arr(e.mentions).map((m) => {
      const u = typeof m.id === 'string' ? usersById.get(m.id) : undefined;
      return { id_str: m.id ?? null, name: u?.name ?? m.username, screen_name: m.username, indices: indices(m) };
    }),
    urls: arr(e.urls).map((u) => ({ display_url: u.display_url ?? u.url, expanded_url: u.unwound_url ?? u.expanded_url ?? u.url, url: u.url, indices: indices(u) })),
  };
}

const V2_USER_KEYS = new Set(['id', 'name', 'username', 'location', 'url', 'description', 'protected', 'verified', 'created_at', 'profile_image_url', 'public_metrics']);

export function v2User(u: Obj): Obj {
  const m = isRecord(u.public_metrics) ? u.public_metrics : {};
  const out: Obj = {
    id_str: u.id,
    name: u.name,
    screen_name: u.username,
    location: u.location,
    url: u.url === '' ? null : u.url,
    description: u.description,
    protected: u.protected,
    verified: u.verified,
    followers_count: m.followers_count,
    friends_count: m.following_count,
    listed_count: m.listed_count,
    statuses_count: m.tweet_count,
    favourites_count: m.like_count,
    created_at: u.created_at,
    profile_image_url_https: u.profile_image_url,
  };
  for (const [k, v] of Object.entries(u)) if (!V2_USER_KEYS.has(k)) out[k] = v;
  if (isRecord(u.public_metrics)) out.public_metrics = u.public_metrics; // keeps any metric not mapped above
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

const V2_TWEET_KEYS = new Set(['id', 'text', 'created_at', 'author_id', 'conversation_id', 'in_reply_to_user_id', 'referenced_tweets', 'public_metrics', 'entities', 'lang', 'source', 'note_tweet']);

export interface V2Context {
  usersById: Map<string, Obj>;
  tweetsById: Map<string, Obj>;
}

export function v2Context(page: Obj): V2Context {
  const inc = isRecord(page.includes) ? page.includes : {};
  return {
    usersById: new Map(arr(inc.users).filter((u) => typeof u.id === 'string').map((u) => [u.id as string, u])),
    tweetsById: new Map(arr(inc.tweets).filter((t) => typeof t.id === 'string').map((t) => [t.id as string, t])),
  };
}

/**
 * The author the page names but does not include (withheld and suspended accounts are left out of
 * includes.users, as is everyone when collected without expansions=author_id): a User with the id
 * alone, stored as incomplete, plus the withheld countries when the post says its author is
 * withheld (`withheld.scope: "user"`), in the shape of a withheld v2 User's `withheld`.
 */
function unknownAuthor(t: Obj, authorId: string): Obj {
  const w = isRecord(t.withheld) ? t.withheld : undefined;
  const user: Obj = { id_str: authorId };
  if (w?.scope === 'user' && Array.isArray(w.country_codes)) user.withheld = { country_codes: w.country_codes, scope: 'user' };
  return user;
}

/** A v2 tweet as a service Tweet; throws a plain Error naming what is missing. */
export function v2ToTweet(t: Obj, ctx: V2Context, depth = 0): Obj {
  if (typeof t.author_id !== 'string') throw new Error('no author_id: whose post it is cannot be told (collected without tweet.fields=author_id)');
  const author = ctx.usersById.get(t.author_id);
  const m = isRecord(t.public_metrics) ? t.public_metrics : {};
  const refs = arr(t.referenced_tweets);
  const ref = (type: string) => refs.find((r) => r.type === type)?.id as string | undefined;
  const replyTo = ref('replied_to');
  const quoted = ref('quoted');
  const retweeted = ref('retweeted');
  const replyUser = typeof t.in_reply_to_user_id === 'string' ? ctx.usersById.get(t.in_reply_to_user_id) : undefined;
  const note = isRecord(t.note_tweet) ? t.note_tweet : undefined;
  const nested = (id: string | undefined): Obj | null => {
    const n = id ? ctx.tweetsById.get(id) : undefined;
    if (!n || depth > 0) return null;
    try {
      return v2ToTweet(n, ctx, depth + 1);
    } catch {
      return null;
    }
  };
  const out: Obj = {
    tweet_created_at: t.created_at,
    id_str: t.id,
    text: null,
    full_text: (note?.text as string | undefined) ?? t.text,
    source: t.source,
    in_reply_to_status_id_str: replyTo ?? null,
    in_reply_to_user_id_str: t.in_reply_to_user_id ?? null,
    in_reply_to_screen_name: (replyUser?.username as string | undefined) ?? null,
    user: author ? v2User(author) : unknownAuthor(t, t.author_id),
    quoted_status_id_str: quoted ?? null,
    is_quote_status: quoted !== undefined,
    quoted_status: nested(quoted),
    retweeted_status: nested(retweeted),
    quote_count: m.quote_count,
    reply_count: m.reply_count,
    retweet_count: m.retweet_count,
    favorite_count: m.like_count,
    views_count: m.impression_count,
    bookmark_count: m.bookmark_count,
    lang: t.lang,
    entities: entities(note && isRecord(note.entities) ? { entities: note.entities } : t, ctx.usersById),
    conversation_id_str: t.conversation_id,
  };
  for (const [k, v] of Object.entries(t)) if (!V2_TWEET_KEYS.has(k)) out[k] = v;
  if (refs.length) out.referenced_tweets = refs;
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
