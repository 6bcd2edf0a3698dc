import type { ReplyShape } from '../../../../shared/contract';

// The reply tree as an icicle (issue 16, the post page's picture): one row per level, the post on
// top; under each post its replies side by side, each as wide as the posts in its subtree (the
// engine's exact sizes), largest first. A reply narrower than MIN_BLOCK_PX cannot be seen or
// pointed at, so the replies to one post that are that narrow are drawn as one grey group block,
// as wide as all of them with their subtrees; so are the replies the engine did not send
// (ReplyShape.hidden). Widths stay exact either way: a post's row below it sums to its size less
// itself. Pure (no DOM), so it is tested on its own.

/** Narrowest reply drawn on its own, in px: 3 px is the least a pointer can hit reliably. */
export const MIN_BLOCK_PX = 3;

export interface TreeBlock {
  kind: 'root' | 'post' | 'group';
  /** 0 for the post itself, 1 for direct replies. */
  depth: number;
  x: number;
  w: number;
  /** The reply's id; for a group, the id of the post its replies answer. */
  id_str: string;
  /** A group's: the author of the post they answer. Null for a protected account's reply. */
  screen_name: string | null;
  text: string;
  /** A post's direct replies; a group's replies drawn in it. */
  replies: number;
  /** Posts in the subtree (a post's, itself included; a group's, all of its replies' together). */
  size: number;
  created_ms: number | null;
  isProtected: boolean;
  /** Levels under the block that its replies reach: a group is drawn down to its deepest reply (0 for a post). */
  levels_below: number;
}

export interface LevelStat {
  depth: number;
  replies: number;
  /** Replies of this level drawn as blocks of their own. */
  drawn: number;
  /** Group blocks at this level; the rest of its replies are in them or under a group above. */
  groups: number;
  protected: number;
}

export interface TreeLayout {
  blocks: TreeBlock[];
  levels: LevelStat[];
  /** Replies drawn as blocks of their own, in all. */
  drawn: number;
  groups: number;
}

export function layoutTree(shape: ReplyShape, width: number, minPx = MIN_BLOCK_PX): TreeLayout {
  const children = new Map<string, ReplyShape['nodes']>();
  // Nodes come largest first, so each list is in drawing order already.
  for (const n of shape.nodes) {
    const list = children.get(n.parent_id_str);
    if (list) list.push(n);
    else children.set(n.parent_id_str, [n]);
  }
  const hidden = new Map(shape.hidden.map((h) => [h.parent_id_str, h]));
  const scale = width / Math.max(1, shape.root.size);
  const root = shape.root;
  const blocks: TreeBlock[] = [
    { kind: 'root', depth: 0, x: 0, w: width, id_str: root.id_str, screen_name: root.screen_name, text: root.text, replies: root.replies, size: root.size, created_ms: null, isProtected: false, levels_below: 0 },
  ];
  const drawnAt = new Map<number, number>();
  const groupsAt = new Map<number, number>();
  const bump = (m: Map<number, number>, d: number) => m.set(d, (m.get(d) ?? 0) + 1);

  const place = (parentId: string, parentName: string | null, x: number, depth: number) => {
    let cx = x;
    let groupReplies = 0;
    let groupPosts = 0;
    let groupBelow = 0;
    for (const c of children.get(parentId) ?? []) {
      const w = c.size * scale;
      if (w >= minPx) {
        blocks.push({ kind: 'post', depth, x: cx, w, id_str: c.id_str, screen_name: c.screen_name, text: c.text, replies: c.replies, size: c.size, created_ms: c.created_ms, isProtected: c.screen_name === null, levels_below: 0 });
        bump(drawnAt, depth);
        place(c.id_str, c.screen_name, cx, depth + 1);
        cx += w;
      } else {
        groupReplies += 1;
        groupPosts += c.size;
        groupBelow = Math.max(groupBelow, c.levels_below);
      }
    }
    const left = hidden.get(parentId);
    if (left) {
      groupReplies += left.replies;
      groupPosts += left.posts;
      groupBelow = Math.max(groupBelow, left.levels_below);
    }
    if (groupReplies > 0) {
      blocks.push({ kind: 'group', depth, x: cx, w: groupPosts * scale, id_str: parentId, screen_name: parentName, text: '', replies: groupReplies, size: groupPosts, created_ms: null, isProtected: false, levels_below: groupBelow });
      bump(groupsAt, depth);
    }
  };
  place(root.id_str, root.screen_name, 0, 1);

  const levels = shape.levels.map((l) => ({ depth: l.depth, replies: l.replies, drawn: drawnAt.get(l.depth) ?? 0, groups: groupsAt.get(l.depth) ?? 0, protected: l.protected }));
  return { blocks, levels, drawn: levels.reduce((n, l) => n + l.drawn, 0), groups: levels.reduce((n, l) => n + l.groups, 0) };
}

/** The direct-replies bins the blocks are coloured by (darker = more), with their legend words. */
export const REPLY_BINS: { min: number; label: string }[] = [
  { min: 0, label: 'no reply' },
  { min: 1, label: '1 reply' },
  { min: 2, label: '2–4' },
  { min: 5, label: '5–9' },
  { min: 10, label: '10 or more' },
];

export function binOf(replies: number): number {
  let bin = 0;
  REPLY_BINS.forEach((b, i) => {
    if (replies >= b.min) bin = i;
  });
  return bin;
}

/** `#rrggbb` (or `#rgb`) mixed with another by t (0: a, 1: b), as `#rrggbb`; other forms come back as b. */
export function mix(a: string, b: string, t: number): string {
  const rgb = (hex: string) => {
    const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
    if (!m) return null;
    const h = m[1]!.length === 3 ? m[1]!.replace(/./g, (c) => c + c) : m[1]!;
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  };
  const x = rgb(a);
  const y = rgb(b);
  if (!x || !y) return b;
  return `#${x.map((v, i) => Math.round(v + (y[i]! - v) * t).toString(16).padStart(2, '0')).join('')}`;
}
