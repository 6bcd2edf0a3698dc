import type { Db } from '../../store/db';
import { cached } from './upsert';

// Conversation structure: every post knows its root (conversation_id) and its depth under it, so
// "direct and second-level replies of X" is one range scan of posts_conversation.
//
// A reply whose parent is not in the corpus yet gets a provisional place: the conversation the
// source names (v2 gives conversation_id), else the parent as root; depth 1 when the parent is the
// root, else 2. When the parent arrives later, `relinkChildren` moves the whole subtree under it.

const MAX_DEPTH = 10_000; // guards the recursive walk against a cycle in hostile data

interface Statements {
  parent: { get(id: bigint): { conversation_id: bigint; reply_depth: bigint } | undefined };
  hasChildren: { get(id: bigint): unknown };
  relink: { run(p: { id: bigint; conversation_id: bigint; reply_depth: number }): unknown };
}
const statements = new WeakMap<Db, Statements>();

function make(db: Db): Statements {
  return {
    parent: db.prepare('SELECT conversation_id, reply_depth FROM posts WHERE id = ?').safeIntegers(true) as unknown as Statements['parent'],
    hasChildren: db.prepare('SELECT 1 FROM posts WHERE in_reply_to_status_id = ? LIMIT 1') as unknown as Statements['hasChildren'],
    relink: db.prepare(`
      WITH RECURSIVE sub (id, depth) AS (
        SELECT id, @reply_depth + 1 FROM posts WHERE in_reply_to_status_id = @id
        UNION ALL
        SELECT p.id, sub.depth + 1 FROM posts p JOIN sub ON p.in_reply_to_status_id = sub.id WHERE sub.depth < ${MAX_DEPTH}
      )
      UPDATE posts SET conversation_id = @conversation_id, reply_depth = (SELECT depth FROM sub WHERE sub.id = posts.id)
      WHERE id IN (SELECT id FROM sub)`) as unknown as Statements['relink'],
  };
}

export function placeInConversation(db: Db, id: bigint, inReplyTo: bigint | null, named: bigint | null): { conversation_id: bigint; reply_depth: number } {
  if (inReplyTo === null) return { conversation_id: named ?? id, reply_depth: 0 };
  const parent = cached(statements, db, make).parent.get(inReplyTo);
  if (parent) return { conversation_id: parent.conversation_id, reply_depth: Number(parent.reply_depth) + 1 };
  const root = named ?? inReplyTo;
  return { conversation_id: root, reply_depth: root === inReplyTo ? 1 : 2 };
}

/** After inserting post `id`, moves replies that arrived before it under its conversation. */
export function relinkChildren(db: Db, id: bigint, conversationId: bigint, depth: number): void {
  const s = cached(statements, db, make);
  if (!s.hasChildren.get(id)) return;
  s.relink.run({ id, conversation_id: conversationId, reply_depth: depth });
}
