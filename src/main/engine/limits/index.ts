export { RateLimiter, WINDOW_MS, DEFAULT_PER_MINUTE, type RateState } from './rate-limiter';
export { SlidingLog } from './sliding-log';
export { rateLimitHeaders, retryAfterSeconds, retryHeaders, POLICY_NAME } from './headers';
