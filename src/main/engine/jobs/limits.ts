// The jobs' limits, in one place (docs/decisions.md, "Jobs").

/** Largest max_count: ten million rows, ten Excel sheets or about 10 GB of JSON, well past any single conversation. */
export const MAX_MAX_COUNT = 10_000_000;
/** Spec 8: a search job's default max_count. */
export const SEARCH_DEFAULT_MAX_COUNT = 20;
/**
 * Rows per committed batch: one fsync of the staged file and one checkpoint-and-charge commit per
 * 5,000 rows (~5 MB of JSON). Writing 100 MB with an fdatasync every 1,000 rows spent 820 ms in
 * fdatasync, every 5,000 rows 190 ms, every 10,000 or 20,000 no less (docs/decisions.md "Exports:
 * batches of 5,000 rows"). A crash redoes at most one batch: about a quarter of a second of work.
 */
export const BATCH_ROWS = 5_000;
/** Post ids per read page inside a batch: the search's largest page (search/page.ts MAX_PAGE_SIZE). */
export const PAGE_ROWS = 1_000;
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
