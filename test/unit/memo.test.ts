import { describe, expect, it } from 'vitest';
import { memoized } from '../../src/main/engine/memo';

describe('memoized', () => {
  it('computes each input once while it is remembered, and starts over when full', () => {
    const calls: string[] = [];
    const upper = memoized(2, (s) => (calls.push(s), s.toUpperCase()));
    expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(calls).toEqual(['a', 'b']);
    upper('c'); // full (a, b): starts over with c alone
    upper('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
