import { describe, expect, it } from 'vitest';
import { collapseMemos, memoOf } from '../../src/main/engine/metering/charge-memo';

// A group's or a journal move's memo in the ledger: a run of the same request said once with its
// count, so "25 requests" of one search read as such instead of the search 25 times, cut off.

describe('request memos', () => {
  it.each([
    [['GET /a'], 'GET /a'],
    [['GET /a', 'GET /a', 'GET /b'], 'GET /a ×2, GET /b'],
    [['GET /a', 'GET /b', 'GET /a'], 'GET /a, GET /b, GET /a'],
    // Journal rows already collapsed: a move merges their runs.
    [['GET /a ×3, GET /b', 'GET /b ×2, GET /a'], 'GET /a ×3, GET /b ×3, GET /a'],
    [['GET /social/search ×250', 'GET /social/search ×50'], 'GET /social/search ×300'],
  ])('%j -> %s', (memos, expected) => {
    expect(collapseMemos(memos)).toBe(expected);
  });

  it('counts every request in the prefix and says each run once', () => {
    expect(memoOf(Array.from({ length: 25 }, () => 'GET /social/search'))).toBe('25 requests: GET /social/search ×25');
    expect(memoOf(['GET /only'])).toBe('GET /only');
  });
});
