import type { UpstreamProfile } from './config';

// The paths of the reads Skein asks an upstream for, per profile: 'socialdata' speaks the real
// service's /twitter/... paths, 'spec' the /social paths another Skein serves. Only the reads the
// first upstream features use are here; ids are checked by the caller (they are digits).

export interface UpstreamPaths {
  userTweets(userId: string, cursor?: string): string;
  /** A timeline of either kind (spec 4.1 `tweets`, 4.2 `tweets-and-replies`). */
  timeline(kind: 'tweets' | 'tweets-and-replies', userId: string, cursor?: string): string;
  article(id: string): string;
  space(id: string): string;
  /** A user's profile by id or screen name: the real service's path on both profiles (another Skein serves it too). */
  user(ref: string): string;
  tweet(id: string): string;
  search(query: string, options?: { cursor?: string; type?: 'Latest' | 'Top' }): string;
  /** The caller's balance: `{status, balance}` in USD on socialdata, `{status, credits: {...}}` on spec. */
  balance(): string;
}

function withQuery(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

function prefixed(prefix: '/twitter' | '/social', balancePath: string): UpstreamPaths {
  return {
    userTweets: (userId, cursor) => withQuery(`${prefix}/user/${encodeURIComponent(userId)}/tweets`, { cursor }),
    timeline: (kind, userId, cursor) => withQuery(`${prefix}/user/${encodeURIComponent(userId)}/${kind}`, { cursor }),
    article: (id) => `${prefix}/article/${encodeURIComponent(id)}`,
    space: (id) => (prefix === '/twitter' ? `/twitter/space/${encodeURIComponent(id)}` : withQuery('/social/spaces/show', { id })),
    user: (ref) => `/twitter/user/${encodeURIComponent(ref)}`,
    tweet: (id) => `${prefix}/tweets/${encodeURIComponent(id)}`,
    search: (query, options = {}) => withQuery(`${prefix}/search`, { query, cursor: options.cursor, type: options.type }),
    balance: () => balancePath,
  };
}

const BY_PROFILE: Record<UpstreamProfile, UpstreamPaths> = {
  socialdata: prefixed('/twitter', '/user/balance'),
  spec: prefixed('/social', '/social/account'),
};

export function upstreamPaths(profile: UpstreamProfile): UpstreamPaths {
  return BY_PROFILE[profile];
}
