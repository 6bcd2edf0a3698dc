import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import type { Sql } from './compile';

// Protected accounts' posts are not public: the platform's search never returns them, and neither
// does ours (search pages, search jobs, reply jobs, the counts behind their holds). Replies *to* a
// protected post by public accounts are public and stay (docs/decisions.md "Search: protected accounts").

/**
 * The per-post condition over `posts AS p`. The subquery is not correlated: SQLite reads it once
 * per statement (migration 052's partial index holds only the protected accounts) and probes the
 * result for each candidate, so a page still stops after its rows.
 */
export const PUBLIC_AUTHOR: Sql = { sql: 'p.user_id NOT IN (SELECT id FROM social_users WHERE protected = 1)', params: [] };

const anyStatements = new WeakMap<Db, Statement<unknown[]>>();

/**
 * Whether the corpus has a protected account at all; without one the condition is left out, so a
 * corpus of public accounts keeps every plan as it was (an FTS-only page reads no posts row).
 */
export function hasProtectedAuthors(db: Db): boolean {
  let stmt = anyStatements.get(db);
  if (!stmt) {
    stmt = db.prepare<unknown[]>('SELECT EXISTS (SELECT 1 FROM social_users WHERE protected = 1)').pluck();
    anyStatements.set(db, stmt);
  }
  return stmt.get() === 1;
}

/** PUBLIC_AUTHOR when the corpus needs it, else nothing. */
export function publicAuthorPredicates(db: Db): Sql[] {
  return hasProtectedAuthors(db) ? [PUBLIC_AUTHOR] : [];
}
