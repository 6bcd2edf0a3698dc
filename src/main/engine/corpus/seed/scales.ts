// Sizes of the seeded corpora. demo is what a first start shows (issue 3: about 200 users and
// 20,000 posts over 90 days); small keeps tests fast; large is for benchmarks (1,000,000 posts).
export type Scale = 'demo' | 'small' | 'large';

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
};

export function isScale(value: string): value is Scale {
  return value === 'demo' || value === 'small' || value === 'large';
}

/**
 * The seeded corpus ends here, whatever the clock says: the same seed gives the same rows, ids and
 * times on every machine and every day (2026-10-31 23:00 UTC).
 */
export const CORPUS_END_MS = Date.UTC(2026, 9, 31, 23, 0, 0);
