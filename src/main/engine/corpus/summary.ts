import type { Db } from '../store/db';
import type { Tour } from './seed/tour';
import { formatMicroZ } from './write/time';

// Figures for the home screen: what the corpus holds, and the tour of notable ids.

export interface CorpusSummary {
  users: number;
  posts: number;
  /** Posts that reply to another post. */
  replies: number;
  articles: number;
  spaces: number;
  /** Oldest and newest post times (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), null for an empty corpus. */
  first_post_at: string | null;
  last_post_at: string | null;
}

export function getCorpusSummary(db: Db): CorpusSummary {
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
    first_post_at: range.first === null ? null : formatMicroZ(range.first),
    last_post_at: range.last === null ? null : formatMicroZ(range.last),
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
