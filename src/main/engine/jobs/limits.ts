// The jobs' limits, in one place (docs/decisions.md, "Jobs").

/** Largest max_count: ten million rows, ten Excel sheets or about 10 GB of JSON, well past any single conversation. */
export const MAX_MAX_COUNT = 10_000_000;
/** Spec 8: a search job's default max_count. */
export const SEARCH_DEFAULT_MAX_COUNT = 20;
/** Rows per committed batch: 1,000 rows is one fsync and one transaction per ~1 MB of JSON. */
export const BATCH_ROWS = 1_000;
/** Attempts before a job that keeps failing (or crashing its process) ends in error. */
export const MAX_ATTEMPTS = 5;
/** Backoff after a failed attempt: 2^attempts seconds, at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.min(attempts, 20));
}
/** A lock whose holder has not committed a batch for this long is considered dead (10 minutes). */
export const STALE_LOCK_MS = 10 * 60_000;
/** Longest search query accepted (the search compiler's own limit). */
export const MAX_QUERY_LENGTH = 1024;
