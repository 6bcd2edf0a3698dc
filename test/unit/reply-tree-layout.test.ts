import { describe, expect, it } from 'vitest';
import type { ReplyShape, ReplyShapeNode } from '../../src/shared/contract';
import { binOf, layoutTree, mix } from '../../src/renderer/src/views/post/reply-tree-layout';

// The reply tree's icicle layout: each block as wide as its branch, children side by side inside
// their parent, the replies too narrow to draw grouped per post they answer, widths exact.

const node = (id: string, parent: string, depth: number, size: number, replies: number, levels_below = 0): ReplyShapeNode => ({
  id_str: id, parent_id_str: parent, depth, screen_name: `u${id}`, text: `text ${id}`, created_ms: 0, replies, size, levels_below,
});

// Root r (size 11): a (size 6: b size 4 -> c size 3 -> d size 2 -> e; g size 1), f (size 1), plus
// 2 replies to r the engine did not send (3 posts: one of them has a reply).
const shape: ReplyShape = {
  root: { id_str: 'r', screen_name: 'root', text: 'root text', replies: 4, size: 11 },
  nodes: [node('a', 'r', 1, 6, 1, 4), node('b', 'a', 2, 4, 1, 3), node('c', 'b', 3, 3, 1, 2), node('d', 'c', 4, 2, 1, 1), node('e', 'd', 5, 1, 0), node('f', 'r', 1, 1, 0), node('g', 'a', 2, 1, 0)],
  hidden: [{ parent_id_str: 'r', replies: 2, posts: 3, levels_below: 1 }],
  total: 10,
  levels: [1, 2, 3, 4, 5].map((depth) => ({ depth, replies: [4, 3, 1, 1, 1][depth - 1]!, protected: 0 })),
  more_levels: false,
};

describe('layoutTree', () => {
  it('draws every reply wide enough on its own, inside its parent, as wide as its branch', () => {
    const { blocks, drawn, groups } = layoutTree(shape, 1100, 3);
    const at = (id: string) => blocks.find((b) => b.kind !== 'group' && b.id_str === id)!;
    expect(at('r')).toMatchObject({ x: 0, w: 1100, depth: 0 });
    expect(at('a')).toMatchObject({ x: 0, w: 600, depth: 1 });
    expect(at('b')).toMatchObject({ x: 0, w: 400, depth: 2 });
    expect(at('g')).toMatchObject({ x: 400, w: 100, depth: 2 });
    expect(at('f')).toMatchObject({ x: 600, w: 100, depth: 1 });
    expect(at('e')).toMatchObject({ x: 0, w: 100, depth: 5 });
    // The 2 replies not sent: one group after r's drawn replies, 3 posts wide, reaching one level down.
    const hidden = blocks.filter((b) => b.kind === 'group');
    expect(hidden).toEqual([expect.objectContaining({ id_str: 'r', depth: 1, x: 700, w: 300, replies: 2, size: 3, levels_below: 1 })]);
    expect([drawn, groups]).toEqual([7, 1]);
  });

  it('groups the replies to one post that would be narrower than the least width, keeping the widths exact', () => {
    // 11 posts over 27.5 px: 2.5 px a post, so branches of one post (f, g, e) are too narrow.
    const { blocks, levels } = layoutTree(shape, 27.5, 3);
    const groups = blocks.filter((b) => b.kind === 'group');
    expect(groups.map((g) => [g.id_str, g.depth, g.replies, g.size])).toEqual([
      ['d', 5, 1, 1],
      ['a', 2, 1, 1],
      ['r', 1, 3, 4], // f and the 2 not sent
    ]);
    expect(groups.find((g) => g.id_str === 'r')!.w).toBeCloseTo(10, 9);
    // Under each post, its drawn replies and its groups fill its width less its own post.
    for (const p of blocks.filter((b) => b.kind !== 'group')) {
      const under = blocks.filter((b) => b.depth === p.depth + 1 && b.x >= p.x - 1e-9 && b.x + b.w <= p.x + p.w + 1e-9);
      const filled = under.reduce((n, b) => n + b.w, 0);
      expect(filled).toBeCloseTo(p.w - 2.5, 9);
    }
    expect(levels.map((l) => [l.depth, l.drawn, l.groups])).toEqual([[1, 1, 1], [2, 1, 1], [3, 1, 0], [4, 1, 0], [5, 0, 1]]);
  });

  it('colours by direct replies in five bins, and mixes theme colours', () => {
    expect([0, 1, 2, 4, 5, 9, 10, 347].map(binOf)).toEqual([0, 1, 2, 2, 3, 3, 4, 4]);
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(mix('#fff', '#2f6fde', 1)).toBe('#2f6fde');
    expect(mix('rgb(1,2,3)', '#2f6fde', 0.5)).toBe('#2f6fde');
  });
});
