import { compileQuery } from '../search';
import { baseWhere } from '../search/statements';
import type { Db } from '../store/db';

// The set of posts an overview describes, newest first: a search query's matches (the search
// compiler's own plan, so the set is exactly what the search pages and a search job would give),
// one user's posts (the timeline index), or the posts a finished job wrote into its file
// (job_posts, migration 066: one range of its primary key).

export type OverviewScope = { query: string } | { userId: bigint } | { jobId: number };

export interface MatchSql {
  /** SELECT of `columns` (expressions over `posts AS p`), newest first, at most `?` rows (the last parameter). */
  sql: string;
  params: unknown[];
}

/**
 * Null when the scope can match nothing (a query the compiler folds to false). A plan with one
 * driver selects the columns from its own `posts AS p`, so each matching post is read once: at 1M
 * posts an overview of `not` (98,433 posts) read each post twice before, once for the search's
 * protected-author condition and once for its columns (818 ms of 1,300 ms).
 */
export function matchSql(db: Db, scope: OverviewScope, cap: number, columns = 'p.id'): MatchSql | null {
  if ('jobId' in scope) {
    return {
      sql: `SELECT ${columns} FROM job_posts AS j CROSS JOIN posts AS p ON p.id = j.post_id WHERE j.job_id = ? ORDER BY j.post_id DESC LIMIT ?`,
      params: [scope.jobId, cap],
    };
  }
  if ('userId' in scope) {
    return { sql: `SELECT ${columns} FROM posts AS p INDEXED BY posts_user_timeline WHERE p.user_id = ? ORDER BY p.id DESC LIMIT ?`, params: [scope.userId, cap] };
  }
  const q = compileQuery(db, scope.query);
  if (!q.union && q.where.sql === '0') return null;
  if (!q.union) {
    const { where, params } = baseWhere(q);
    return { sql: `SELECT ${columns} FROM ${q.from} WHERE ${where.join(' AND ')} ORDER BY ${q.idColumn} DESC LIMIT ?`, params: [...params, cap] };
  }
  const arms = q.union.map((arm) => {
    const { where, params } = baseWhere(arm);
    return { sql: `SELECT ${arm.idColumn} AS id FROM ${arm.from} WHERE ${where.join(' AND ')}`, params };
  });
  // UNION drops a post two branches both match.
  const ids = `SELECT id FROM (${arms.map((a) => a.sql).join(' UNION ')}) ORDER BY id DESC LIMIT ?`;
  return { sql: `SELECT ${columns} FROM (${ids}) AS m CROSS JOIN posts AS p ON p.id = m.id`, params: [...arms.flatMap((a) => a.params), cap] };
}
