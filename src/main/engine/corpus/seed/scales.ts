// Sizes of the seeded corpora. demo is what a first start shows (issue 3: about 200 users and
// 20,000 posts over 90 days); small keeps tests fast; large is for benchmarks (1,000,000 posts);
// xl is the research-corpus scale of issue 17 (10,000,000 posts over two years).
export type Scale = 'demo' | 'small' | 'large' | 'xl';

export interface ScaleSpec {
  users: number;
  posts: number;
  days: number;
  articles: number;
  spaces: number;
}

export const SCALES: Record<Scale, ScaleSpec> = {
  small: { users: 40, posts: 2_000, days: 30, articles: 3, spaces: 3 },
  demo: { users: 200, posts: 20_000, days: 90, articles: 12, spaces: 8 },
  large: { users: 5_000, posts: 1_000_000, days: 365, articles: 200, spaces: 50 },
  // Four times the accounts of large over twice the days: the busiest account writes ~2.5 times
  // as many posts as in large, the corpus ten times as many.
  xl: { users: 20_000, posts: 10_000_000, days: 730, articles: 2_000, spaces: 500 },
};

export const SCALE_NAMES = Object.keys(SCALES) as Scale[];

export function isScale(value: string): value is Scale {
  return Object.hasOwn(SCALES, value);
}

/**
 * What a seeded corpus needs on disk, with room to spare: the large corpus measured 819 bytes per
 * post (1,000,000 posts, 819 MB with its indexes and full-text index), plus the WAL (64 MiB while
 * seeding) and 25% headroom.
 */
export function seedBytesNeeded(scale: Scale): number {
  return Math.ceil(SCALES[scale].posts * 819 * 1.25) + 64 * 1024 * 1024;
}

/**
 * The seeded corpus ends here, whatever the clock says: the same seed gives the same rows, ids and
 * times on every machine and every day (2026-10-31 23:00 UTC).
 */
export const CORPUS_END_MS = Date.UTC(2026, 9, 31, 23, 0, 0);
