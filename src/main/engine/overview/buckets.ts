// Time buckets of an overview's posts-over-time series. A bucket is a whole number computed in
// SQL from created_at_us (microseconds) shifted by a fixed UTC offset; the series holds each
// bucket's start instant in epoch milliseconds.

export type Bucket = 'hour' | 'day' | 'week' | 'month';
export const BUCKETS: readonly Bucket[] = ['hour', 'day', 'week', 'month'];

/** Most buckets one series holds: a chart of 1,000 bars is still readable, and the CSV stays small. */
export const MAX_BUCKETS = 1000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The bucket for a span of posts: at most 2 days by hour (<= 48 bars), 90 days by day (<= 90),
 * 2 years by week (<= 105), longer by month.
 */
export function autoBucket(spanMs: number): Bucket {
  if (spanMs <= 2 * DAY_MS) return 'hour';
  if (spanMs <= 90 * DAY_MS) return 'day';
  if (spanMs <= 731 * DAY_MS) return 'week';
  return 'month';
}

/**
 * The bucket number of `p.created_at_us` as SQL, in a zone `offsetMinutes` east of UTC (an
 * integer, so it is inlined). Weeks start on Monday: 1970-01-01 was a Thursday, 3 days after one.
 */
export function bucketSql(bucket: Bucket, column: string, offsetMinutes: number): string {
  const seconds = `(${column} / 1000000 + ${offsetMinutes * 60})`;
  switch (bucket) {
    case 'hour':
      return `(${seconds} / 3600)`;
    case 'day':
      return `(${seconds} / 86400)`;
    case 'week':
      return `((${seconds} / 86400 + 3) / 7)`;
    case 'month':
      return `(CAST(strftime('%Y', ${seconds}, 'unixepoch') AS INTEGER) * 12 + CAST(strftime('%m', ${seconds}, 'unixepoch') AS INTEGER) - 1)`;
  }
}

/** The bucket number of an instant, as bucketSql computes it (for the first and last post). */
export function bucketOf(bucket: Bucket, ms: number, offsetMinutes: number): number {
  const local = ms + offsetMinutes * 60_000;
  switch (bucket) {
    case 'hour':
      return Math.floor(local / HOUR_MS);
    case 'day':
      return Math.floor(local / DAY_MS);
    case 'week':
      return Math.floor((Math.floor(local / DAY_MS) + 3) / 7);
    case 'month': {
      const d = new Date(local);
      return d.getUTCFullYear() * 12 + d.getUTCMonth();
    }
  }
}

/** The instant (epoch ms) a bucket starts at, in the zone of its offset. */
export function bucketStartMs(bucket: Bucket, n: number, offsetMinutes: number): number {
  const shift = offsetMinutes * 60_000;
  switch (bucket) {
    case 'hour':
      return n * HOUR_MS - shift;
    case 'day':
      return n * DAY_MS - shift;
    case 'week':
      return (n * 7 - 3) * DAY_MS - shift;
    case 'month':
      return Date.UTC(Math.floor(n / 12), n % 12, 1) - shift;
  }
}

/** The given bucket, or the next coarser one whose series fits in MAX_BUCKETS. */
export function fittingBucket(bucket: Bucket, firstMs: number, lastMs: number, offsetMinutes: number): Bucket {
  for (const b of BUCKETS.slice(BUCKETS.indexOf(bucket))) {
    if (bucketOf(b, lastMs, offsetMinutes) - bucketOf(b, firstMs, offsetMinutes) + 1 <= MAX_BUCKETS) return b;
  }
  return 'month';
}
