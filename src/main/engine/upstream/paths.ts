import type { UpstreamProfile } from './config';

// The paths of the reads Skein asks an upstream for, per profile: 'socialdata' speaks the real
// service's /twitter/... paths, 'spec' the /social paths another Skein serves. Only the reads the
// first upstream features use are here; ids are checked by the caller (they are digits).

export interface UpstreamPaths {
  userTweets(userId: string, cursor?: string): string;
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
