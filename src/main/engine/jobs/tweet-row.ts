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

function rowsStatement(db: Db): ReturnType<Db['prepare']> {
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
  return stmt;
}

function checkIds(ids: readonly bigint[]): void {
  if (ids.length > 1000) throw new Error(`loadTweetRows: ${ids.length} ids, at most 1000 a call`);
}

/** Reads full rows for the given post ids, keeping the order of `ids`. At most 1000 ids a call. */
export function loadTweetRows(db: Db, ids: readonly bigint[]): TweetRow[] {
  if (ids.length === 0) return [];
  checkIds(ids);
  const rows = rowsStatement(db).all(`[${ids.join(',')}]`) as TweetRow[];
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

/**
 * The text of the rows of `ids`, in the order of `ids`, each written by `line` (given the row and
 * its index among the rows written) as soon as SQLite returns it: no array of the page's rows is
 * built. A job's page of 1,000 rows held at once outlived V8's young generation and was copied
 * into the old one; read one at a time, a row dies young (docs/decisions.md "Exports: ...").
 * Same contract as loadTweetRows: a post deleted meanwhile is skipped; should SQLite return the
 * rows in another order, the page is written again from loadTweetRows' ordered rows.
 */
export function writeTweetRows(db: Db, ids: readonly bigint[], line: (row: TweetRow, index: number) => string): WrittenRows {
  if (ids.length === 0) return { text: '', rows: 0, ids: [] };
  checkIds(ids);
  let text = '';
  let n = 0;
  let j = 0;
  let ordered = true;
  const written: bigint[] = [];
  for (const row of rowsStatement(db).iterate(`[${ids.join(',')}]`) as IterableIterator<TweetRow>) {
    while (j < ids.length && ids[j] !== row.id) j++;
    if (j === ids.length) {
      // Leaving the loop first ends the statement's run, so writeOrdered can run it again.
      ordered = false;
      break;
    }
    j++;
    text += line(row, n++);
    written.push(row.id);
  }
  return ordered ? { text, rows: n, ids: written } : writeOrdered(db, ids, line);
}

function writeOrdered(db: Db, ids: readonly bigint[], line: (row: TweetRow, index: number) => string): WrittenRows {
  const rows = loadTweetRows(db, ids);
  let text = '';
  rows.forEach((r, i) => {
    text += line(r, i);
  });
  return { text, rows: rows.length, ids: rows.map((r) => r.id) };
}

/** A page's text, its row count, and the ids of the rows written (deleted posts are skipped). */
interface WrittenRows {
  text: string;
  rows: number;
  ids: bigint[];
}
