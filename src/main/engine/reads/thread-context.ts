import type { Db } from '../store/db';
import type { PostRow } from '../serialize/rows';
import { POST_SELECT, postRowOf } from './post-select';

// A post's place in its conversation, for the app's post page (issue 15 "Threads and context"):
// the replies above it up to the root, its author's self-thread, the post it quotes and how many
// stored posts quote it. Local corpus only: a parent or quoted post the corpus lacks is named by
// id, and the page links to it (which fetches it through an upstream when one is set). Protected
// authors' posts count as not held, as in every read (docs/decisions.md "Search: protected accounts").

/** A reply chain is walked at most this far up (the demo's deepest is 16; a real one rarely passes 100). */
export const MAX_ANCESTORS = 200;
/** A self-thread shows at most this many posts (the longest real threads run to a few hundred). */
export const MAX_THREAD_POSTS = 200;

export interface ThreadContext {
  /** The replies above the post, the root first (the nearest MAX_ANCESTORS when the chain is longer). */
  ancestors: PostRow[];
  /** More posts above the first ancestor than were walked. */
  ancestorsTruncated: boolean;
  /** The post the chain reaches but the corpus does not hold (or holds from a protected author). */
  missingParentId: bigint | null;
  /** The author's self-thread holding the post, first to last; empty when the post is not in one. */
  thread: PostRow[];
  /** The post quoted, when held; else its id in quotedMissingId. */
  quoted: PostRow | null;
  quotedMissingId: bigint | null;
  /** Stored posts quoting this one (the posts_quoted index). */
  quotesInCorpus: number;
}

const statementsOf = new WeakMap<Db, ReturnType<typeof prepare>>();

function prepare(db: Db) {
  return {
    post: db.prepare(`${POST_SELECT} WHERE p.id = ?`).raw(true).safeIntegers(true),
    // The author's earliest reply to the post: the next post of a self-thread.
    nextOfThread: db.prepare(`${POST_SELECT} WHERE p.in_reply_to_status_id = ? AND p.user_id = ? ORDER BY p.id LIMIT 1`).raw(true).safeIntegers(true),
    quotes: db.prepare('SELECT count(*) FROM posts WHERE quoted_status_id = ?').pluck().safeIntegers(false),
  };
}

function statements(db: Db) {
  let s = statementsOf.get(db);
  if (!s) statementsOf.set(db, (s = prepare(db)));
  return s;
}

export function threadContext(db: Db, post: PostRow): ThreadContext {
  const s = statements(db);
  const held = (id: bigint): PostRow | undefined => {
    const raw = s.post.get(id) as unknown[] | undefined;
    const row = raw ? postRowOf(raw) : undefined;
    return row && !row.u_protected ? row : undefined;
  };

  const above: PostRow[] = []; // nearest first
  let missingParentId: bigint | null = null;
  let parentId = post.in_reply_to_status_id;
  const seen = new Set<bigint>([post.id]); // a cycle in imported data must not loop
  while (parentId !== null && above.length < MAX_ANCESTORS && !seen.has(parentId)) {
    const parent = held(parentId);
    if (!parent) {
      missingParentId = parentId;
      break;
    }
    seen.add(parent.id);
    above.push(parent);
    parentId = parent.in_reply_to_status_id;
  }
  const ancestorsTruncated = missingParentId === null && parentId !== null && above.length >= MAX_ANCESTORS;

  // The self-thread: the author's own posts directly above, the post, and the author's replies to
  // themselves below it, one after the other.
  const before: PostRow[] = [];
  for (const p of above) {
    if (p.user_id !== post.user_id) break;
    before.unshift(p);
  }
  const after: PostRow[] = [];
  let tail = post;
  while (before.length + 1 + after.length < MAX_THREAD_POSTS) {
    const raw = s.nextOfThread.get(tail.id, post.user_id) as unknown[] | undefined;
    if (!raw) break;
    const next = postRowOf(raw);
    if (seen.has(next.id)) break;
    seen.add(next.id);
    after.push(next);
    tail = next;
  }
  const thread = before.length + after.length > 0 ? [...before, post, ...after] : [];

  const quoted = post.quoted_status_id === null ? null : (held(post.quoted_status_id) ?? null);
  return {
    ancestors: above.reverse(),
    ancestorsTruncated,
    missingParentId,
    thread,
    quoted,
    quotedMissingId: post.quoted_status_id !== null && !quoted ? post.quoted_status_id : null,
    quotesInCorpus: s.quotes.get(post.id) as number,
  };
}
