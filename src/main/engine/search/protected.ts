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

/**
 * maxIds: protected accounts with at most this many posts in all are left out by post id, so a
 * full-text or entity page reads no posts row at all: a page drops them from the rows it read (a Set
 * lookup, page.ts keptRows); counts and overviews put them in a NOT IN list. Past maxIds the author
 * condition joins every candidate to its posts row. Measured at 10M posts (one protected account,
 * 579 posts; docs/decisions.md "Search at 10M: protected posts by id up to 2,000"): a first page of
 * `#tag` 38 µs by author against 22 µs by id, the nine shapes 0.63 of hand-written SQL against
 * 0.81; reading the ids costs ~0.15 µs each, once per compile (87 µs for 579, ~300 µs for 2,000).
 * Exported for tests, which shrink it.
 */
export const protectedTuning = { maxIds: 2_000 };

/** How the plans leave protected accounts' posts out. */
export type Exclusion =
  /** No protected account has a post: no condition at all. */
  | { kind: 'none' }
  /** Their posts, few: `<id column> NOT IN (...)`. */
  | { kind: 'ids'; ids: bigint[] }
  /** Their posts, many: PUBLIC_AUTHOR over p. */
  | { kind: 'authors' };

const idStatements = new WeakMap<Db, Statement<unknown[]>>();

/** Read once per compile, in the page's snapshot (statements.ts inSnapshot). */
export function protectedExclusion(db: Db): Exclusion {
  let stmt = idStatements.get(db);
  if (!stmt) {
    stmt = db
      .prepare<unknown[]>(
        'SELECT p.id FROM social_users AS u INDEXED BY social_users_protected ' +
          'CROSS JOIN posts AS p INDEXED BY posts_user_timeline ON p.user_id = u.id WHERE u.protected = 1 LIMIT ?',
      )
      .pluck()
      .safeIntegers(true);
    idStatements.set(db, stmt);
  }
  const ids = stmt.all(protectedTuning.maxIds + 1) as bigint[];
  if (ids.length === 0) return { kind: 'none' };
  if (ids.length > protectedTuning.maxIds) return { kind: 'authors' };
  return { kind: 'ids', ids };
}

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

/** PUBLIC_AUTHOR when the corpus needs it, else nothing (reply collection's levels: they read p anyway). */
export function publicAuthorPredicates(db: Db): Sql[] {
  return hasProtectedAuthors(db) ? [PUBLIC_AUTHOR] : [];
}
