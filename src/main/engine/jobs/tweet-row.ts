import { POST_COLUMNS } from '../reads/post-select';
import type { PostRow } from '../serialize/rows';
import type { Db } from '../store/db';

// One post with its author, as the jobs read it from the store: the reads' PostRow plus the two
// columns the jobs' CSV and XLSX output adds. Ids stay BigInt end to end (statements run with
// safeIntegers), so a 19-digit id is never rounded by a JS number.
export interface TweetRow extends PostRow {
  conversation_id: bigint;
  reply_depth: bigint;
}

/** The select list of a TweetRow over `posts p JOIN social_users u ON u.id = p.user_id`. */
export const TWEET_ROW_COLUMNS = `${POST_COLUMNS}, p.conversation_id, p.reply_depth`;

const statements = new WeakMap<Db, ReturnType<Db['prepare']>>();

/** Reads full rows for the given post ids, keeping the order of `ids`. At most 1000 ids a call. */
export function loadTweetRows(db: Db, ids: readonly bigint[]): TweetRow[] {
  if (ids.length === 0) return [];
  if (ids.length > 1000) throw new Error(`loadTweetRows: ${ids.length} ids, at most 1000 a call`);
  let stmt = statements.get(db);
  if (!stmt) {
    // json_each drives the join (CROSS JOIN fixes that order): one primary-key probe per id. An
    // IN (subquery) form let the planner scan posts instead. json_each keeps 64-bit integers exact
    // when they are written as bare digits.
    stmt = db
      .prepare(`SELECT ${TWEET_ROW_COLUMNS} FROM json_each(?) AS j CROSS JOIN posts p ON p.id = j.value CROSS JOIN social_users u ON u.id = p.user_id`)
      .safeIntegers(true);
    statements.set(db, stmt);
  }
  const rows = stmt.all(`[${ids.join(',')}]`) as TweetRow[];
  // The nested loop returns the ids' order; a post deleted meanwhile is simply missing. Checked,
  // not assumed: SQL promises no order without ORDER BY (a sort here cost a temp B-tree per batch).
  let j = 0;
  for (const id of ids) {
    if (j < rows.length && rows[j]!.id === id) j++;
  }
  if (j === rows.length) return rows;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
