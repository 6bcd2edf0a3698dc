import type { RateState } from './rate-limiter';

// RateLimit header fields, IETF draft-ietf-httpapi-ratelimit-headers-10 (September 2025):
// structured fields naming one policy. Example for the default limit:
//   RateLimit-Policy: "per-user";q=120;w=60
//   RateLimit: "per-user";r=37;t=12
// q: requests per window; w: window in seconds; r: requests left; t: seconds until one more is
// allowed (the oldest admission leaves the window). Seconds are rounded up, so a client that waits
// t seconds is never early.
export const POLICY_NAME = 'per-user';

export function rateLimitHeaders(s: RateState): Record<string, string> {
  return {
    'ratelimit-policy': `"${POLICY_NAME}";q=${s.limit};w=${Math.round(s.windowMs / 1000)}`,
    ratelimit: `"${POLICY_NAME}";r=${s.remaining};t=${Math.max(0, Math.ceil(s.resetMs / 1000))}`,
  };
}

/** Retry-After (RFC 9110) in whole seconds, rounded up, at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/**
 * The headers of a refused request. Retry-After alone is too coarse for the clients many scripts
 * use: Stainless-generated SDKs (SocialData's official TypeScript SDK among them) honour
 * Retry-After only below 60 s and otherwise retry after 0.5-8 s, so a full window's "60" made them
 * retry at once and fail again. `retry-after-ms` is the exact wait in whole milliseconds (rounded
 * up, so a request sent that long after is admitted), which those SDKs read first; it is below
 * 60,000 whenever any time has passed since the window's oldest request.
 */
export function retryHeaders(retryAfterMs: number): Record<string, string> {
  return { 'retry-after': String(retryAfterSeconds(retryAfterMs)), 'retry-after-ms': String(Math.max(1, Math.ceil(retryAfterMs))) };
}
