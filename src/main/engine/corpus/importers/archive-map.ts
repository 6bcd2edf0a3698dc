import { isRecord } from '../write/json';

// The X account archive (Settings > Download an archive): data/tweets.js holds
// `window.YTD.tweets.part0 = [{"tweet": {...}}, ...]` with v1-like posts whose counters and entity
// indices are strings, and no user object: every post is the archive owner's, described by
// data/account.js (id, username, display name, creation time) and data/profile.js (bio, website,
// location, avatar, header). The owner's email and phone in account.js are never stored.

type Obj = Record<string, unknown>;

const first = (v: unknown, key: string): Obj | undefined => {
  if (!Array.isArray(v)) return undefined;
  const item: unknown = v[0];
  return isRecord(item) && isRecord(item[key]) ? item[key] : undefined;
};

/** The owner as a service User, from parsed account.js and profile.js arrays; undefined if no account. */
export function archiveOwner(accountJs: unknown, profileJs: unknown): Obj | undefined {
  const account = first(accountJs, 'account');
  if (!account || (typeof account.accountId !== 'string' && typeof account.accountId !== 'number')) return undefined;
  const profile = first(profileJs, 'profile') ?? {};
  const description = isRecord(profile.description) ? profile.description : {};
  const user: Obj = {
    id_str: String(account.accountId),
    screen_name: account.username,
    name: account.accountDisplayName ?? account.username,
    created_at: account.createdAt,
    description: description.bio,
    location: description.location,
    url: typeof description.website === 'string' && description.website !== '' ? description.website : null,
    profile_image_url_https: profile.avatarMediaUrl,
    profile_banner_url: profile.headerMediaUrl,
  };
  for (const k of Object.keys(user)) if (user[k] === undefined) delete user[k];
  return user;
}

function numericIndices(entities: unknown): unknown {
  if (!isRecord(entities)) return entities;
  const out: Obj = {};
  for (const [kind, list] of Object.entries(entities)) {
    out[kind] = Array.isArray(list)
      ? list.map((e: unknown) => (isRecord(e) && Array.isArray(e.indices) ? { ...e, indices: e.indices.map((i: unknown) => (typeof i === 'string' && /^\d+$/.test(i) ? Number(i) : i)) } : e))
      : list;
  }
  return out;
}

/** One element of tweets.js (`{"tweet": {...}}` or the bare post in older archives) as a service Tweet. */
export function archiveToTweet(element: Obj, owner: Obj): Obj {
  const t = isRecord(element.tweet) ? element.tweet : element;
  const out: Obj = { ...t };
  delete out.created_at;
  out.tweet_created_at = t.created_at;
  out.user = owner;
  out.entities = numericIndices(t.entities);
  if (t.extended_entities !== undefined) out.extended_entities = numericIndices(t.extended_entities);
  return out;
}
