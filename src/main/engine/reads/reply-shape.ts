import type { ReplyShape, ReplyShapeNode } from '../../../shared/contract';
import { fail } from '../errors';
import type { Db } from '../store/db';

// The reply tree under a post as a shape to draw (issue 16, the post page's picture): who replied
// to whom, by level. Every count is SQL over a TEMP table of the tree (this connection only; TEMP
// writes take no lock on the corpus file):
// - the tree: one recursive query down posts_in_reply_to, breadth first, bounded as the reply
//   list is (100 levels, 200,000 replies: handlers/reads.ts);
// - each reply's direct replies, subtree size and levels below it: one grouped UPDATE per level, deepest first
//   (a level's sizes are its children's, summed), so the work is one pass over the tree;
// - the nodes sent: the largest subtrees, at most MAX_NODES. A parent's subtree is larger than any
//   of its children's, so every node sent comes with all its ancestors; the replies left out are
//   counted per post they answer (`hidden`), so the picture's widths stay exact.

/** Levels and replies walked, as the reply list (handlers/reads.ts MAX_LEVELS, MAX_WALKED_IDS). */
export const SHAPE_MAX_LEVELS = 100;
export const SHAPE_MAX_REPLIES = 200_000;
/** Nodes sent: a picture 1,400 px wide draws at most ~470 blocks of 3 px per level; 2,000 covers the demo's 1,630 replies whole. */
export const SHAPE_MAX_NODES = 2_000;
/** Characters of each reply's text sent for the hover. */
const TEXT_START = 140;

const TEMP = `CREATE TEMP TABLE IF NOT EXISTS reply_shape (
  id INTEGER PRIMARY KEY, parent INTEGER NOT NULL, depth INTEGER NOT NULL, protected INTEGER NOT NULL,
  replies INTEGER NOT NULL DEFAULT 0, size INTEGER NOT NULL DEFAULT 1, below INTEGER NOT NULL DEFAULT 0, shown INTEGER NOT NULL DEFAULT 0)`;
const TEMP_INDEX = 'CREATE INDEX IF NOT EXISTS temp.reply_shape_level ON reply_shape (depth, parent)';

interface Limits {
  maxLevels: number;
  maxReplies: number;
  maxNodes: number;
}

export function replyShape(db: Db, rootId: bigint, limits: Partial<Limits> = {}): ReplyShape {
  const { maxLevels, maxReplies, maxNodes } = { maxLevels: SHAPE_MAX_LEVELS, maxReplies: SHAPE_MAX_REPLIES, maxNodes: SHAPE_MAX_NODES, ...limits };
  return db.transaction(() => {
    const root = db
      .prepare('SELECT p.id, u.screen_name, u.protected, substr(p.full_text, 1, ?) AS text FROM posts p JOIN social_users u ON u.id = p.user_id WHERE p.id = ?')
      .safeIntegers(true)
      .get(TEXT_START, rootId) as { id: bigint; screen_name: string; protected: bigint; text: string } | undefined;
    if (!root) throw fail.notFound(`Tweet ${rootId} was not found.`);
    db.exec(TEMP);
    db.exec(TEMP_INDEX);
    db.exec('DELETE FROM temp.reply_shape');
    try {
      return shapeOf(db, rootId, root, { maxLevels, maxReplies, maxNodes });
    } finally {
      db.exec('DELETE FROM temp.reply_shape');
    }
  })();
}

function shapeOf(db: Db, rootId: bigint, root: { screen_name: string; protected: bigint; text: string }, limits: Limits): ReplyShape {
  // Breadth first (SQLite's recursive queue is FIFO), so the LIMIT cuts the deepest level; the
  // root is never its own descendant, so a reply cycle in imported data cannot loop.
  db.prepare(
    `WITH RECURSIVE t(id, parent, depth) AS (
       SELECT p.id, p.in_reply_to_status_id, 1 FROM posts p WHERE p.in_reply_to_status_id = @root AND p.id <> @root
       UNION ALL
       SELECT p.id, p.in_reply_to_status_id, t.depth + 1 FROM t JOIN posts p ON p.in_reply_to_status_id = t.id
        WHERE t.depth < @maxLevels AND p.id <> @root
       LIMIT @maxReplies
     )
     INSERT OR IGNORE INTO temp.reply_shape (id, parent, depth, protected)
     SELECT t.id, t.parent, t.depth, u.protected FROM t CROSS JOIN posts p ON p.id = t.id JOIN social_users u ON u.id = p.user_id`,
  ).run({ root: rootId, maxLevels: limits.maxLevels, maxReplies: limits.maxReplies });

  const levels = db
    .prepare('SELECT depth, count(*) AS replies, sum(protected) AS protected FROM temp.reply_shape GROUP BY depth ORDER BY depth')
    .all() as ReplyShape['levels'];
  const total = levels.reduce((n, l) => n + l.replies, 0);
  // Deepest level first: a level's replies, sizes and depths below come from the level below, already summed.
  const sum = db.prepare(
    `UPDATE temp.reply_shape SET replies = c.n, size = 1 + c.s, below = 1 + c.b
       FROM (SELECT parent, count(*) AS n, sum(size) AS s, max(below) AS b FROM temp.reply_shape WHERE depth = @below GROUP BY parent) AS c
      WHERE reply_shape.id = c.parent`,
  );
  const deepest = levels[levels.length - 1]?.depth ?? 0;
  for (let d = deepest; d >= 2; d--) sum.run({ below: d });

  db.prepare('UPDATE temp.reply_shape SET shown = 1 WHERE id IN (SELECT id FROM temp.reply_shape ORDER BY size DESC, id DESC LIMIT ?)').run(limits.maxNodes);
  const nodes = db
    .prepare(
      `SELECT CAST(s.id AS TEXT) AS id_str, CAST(s.parent AS TEXT) AS parent_id_str, s.depth,
              CASE WHEN s.protected = 1 THEN NULL ELSE u.screen_name END AS screen_name,
              CASE WHEN s.protected = 1 THEN '' ELSE substr(p.full_text, 1, @text) END AS text,
              p.created_at_us / 1000 AS created_ms, s.replies, s.size, s.below AS levels_below
         FROM temp.reply_shape s CROSS JOIN posts p ON p.id = s.id JOIN social_users u ON u.id = p.user_id
        WHERE s.shown = 1 ORDER BY s.size DESC, s.id DESC`,
    )
    .all({ text: TEXT_START }) as ReplyShapeNode[];
  // The replies left out, per post drawn (or the root) that they answer, with their subtrees.
  const hidden = db
    .prepare(
      `SELECT CAST(h.parent AS TEXT) AS parent_id_str, count(*) AS replies, sum(h.size) AS posts, max(h.below) AS levels_below
         FROM temp.reply_shape h LEFT JOIN temp.reply_shape up ON up.id = h.parent
        WHERE h.shown = 0 AND (h.parent = @root OR up.shown = 1)
        GROUP BY h.parent ORDER BY posts DESC, h.parent DESC`,
    )
    .all({ root: rootId }) as ReplyShape['hidden'];
  // Replies the walk left out (only possible at its bounds): one reply to a post of the tree that is not in it.
  const more =
    (total >= limits.maxReplies || deepest >= limits.maxLevels) &&
    db
      .prepare(
        `SELECT 1 FROM temp.reply_shape s JOIN posts p ON p.in_reply_to_status_id = s.id
          WHERE p.id <> @root AND NOT EXISTS (SELECT 1 FROM temp.reply_shape o WHERE o.id = p.id) LIMIT 1`,
      )
      .get({ root: rootId }) !== undefined;
  const rootReplies = levels[0]?.replies ?? 0;
  const rootProtected = root.protected !== 0n;
  return {
    root: {
      id_str: rootId.toString(),
      screen_name: rootProtected ? null : root.screen_name,
      text: rootProtected ? '' : root.text,
      replies: rootReplies,
      size: total + 1,
    },
    nodes,
    hidden,
    total,
    levels,
    more_levels: more,
  };
}
