import { compileQuery } from '../search';
import { baseWhere } from '../search/statements';
import type { Db } from '../store/db';

// The set of posts an overview describes, as one SELECT of post ids newest first: a search
// query's matches (the search compiler's own plan, so the set is exactly what the search pages
// and a search job would give), one user's posts (the timeline index), or the posts a finished
// job wrote into its file (job_posts, migration 066: one range of its primary key).

export type OverviewScope = { query: string } | { userId: bigint } | { jobId: number };

export interface MatchSql {
  /** SELECT of `id`, newest first, at most `?` rows (the last parameter). */
  sql: string;
  params: unknown[];
}

/** Null when the scope can match nothing (a query the compiler folds to false). */
export function matchSql(db: Db, scope: OverviewScope, cap: number): MatchSql | null {
  if ('jobId' in scope) {
    return { sql: 'SELECT post_id AS id FROM job_posts WHERE job_id = ? ORDER BY post_id DESC LIMIT ?', params: [scope.jobId, cap] };
  }
  if ('userId' in scope) {
    return { sql: 'SELECT id FROM posts INDEXED BY posts_user_timeline WHERE user_id = ? ORDER BY id DESC LIMIT ?', params: [scope.userId, cap] };
  }
  const q = compileQuery(db, scope.query);
  if (!q.union && q.where.sql === '0') return null;
  const arms = (q.union ?? [q]).map((arm) => {
    const { where, params } = baseWhere(arm);
    return { sql: `SELECT ${arm.idColumn} AS id FROM ${arm.from} WHERE ${where.join(' AND ')}`, params };
  });
  if (arms.length === 1) return { sql: `${arms[0]!.sql} ORDER BY ${q.idColumn} DESC LIMIT ?`, params: [...arms[0]!.params, cap] };
  // UNION drops a post two branches both match.
  return { sql: `SELECT id FROM (${arms.map((a) => a.sql).join(' UNION ')}) ORDER BY id DESC LIMIT ?`, params: [...arms.flatMap((a) => a.params), cap] };
}
