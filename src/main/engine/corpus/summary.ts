import type { CorpusSummary } from '../../../shared/contract';
import type { Db } from '../store/db';
import type { Tour } from './seed/tour';

// Figures for the home screen: what the corpus holds, and the tour of notable ids.

/** The contract's corpus figures without the tour and the demo flag (handlers/corpus.ts adds them). */
export type CorpusFigures = Omit<CorpusSummary, 'tour' | 'holds_demo_data'>;

export function getCorpusSummary(db: Db): CorpusFigures {
  const one = (sql: string) => Number((db.prepare(sql).pluck().get() as number | null) ?? 0);
  // The newest and oldest posts by id (snowflake order) are one index probe each; min/max over
  // created_at_us would scan every row of a million-post corpus.
  const range = db.prepare(`SELECT (SELECT created_at_us FROM posts ORDER BY id LIMIT 1) AS first, (SELECT created_at_us FROM posts ORDER BY id DESC LIMIT 1) AS last`).get() as { first: number | null; last: number | null };
  return {
    users: one('SELECT count(*) FROM social_users'),
    posts: one('SELECT count(*) FROM posts'),
    replies: one('SELECT count(*) FROM posts WHERE in_reply_to_status_id IS NOT NULL'),
    articles: one('SELECT count(*) FROM articles'),
    spaces: one('SELECT count(*) FROM spaces'),
    first_post_ms: range.first === null ? null : Math.floor(Number(range.first) / 1000),
    last_post_ms: range.last === null ? null : Math.floor(Number(range.last) / 1000),
  };
}

/** The tour of the seeded corpus, or null when the corpus was not seeded. */
export function getTour(db: Db): Tour | null {
  const row = db.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string | undefined;
  if (row === undefined) return null;
  try {
    return JSON.parse(row) as Tour;
  } catch {
    return null;
  }
}
