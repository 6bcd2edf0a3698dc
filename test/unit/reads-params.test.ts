import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/main/engine/reads/cursor';
import { parseNumericId, parseSpaceId } from '../../src/main/engine/reads/params';
import { SkeinError } from '../../src/main/engine/errors';

function failure(fn: () => unknown): SkeinError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SkeinError) return err;
    throw err;
  }
  throw new Error('expected a SkeinError');
}

describe('parseNumericId', () => {
  it.each([
    ['1', 1n],
    ['007', 7n],
    ['1800000000000000001', 1800000000000000001n],
    ['9223372036854775807', 9223372036854775807n],
    // A 19-digit id with leading zeros (docs/api.md: they are accepted): 20 and 40 characters.
    ['01800000000000000001', 1800000000000000001n],
    [`${'0'.repeat(21)}9223372036854775807`, 9223372036854775807n],
  ])('%s -> %s', (raw, id) => expect(parseNumericId('id', raw)).toBe(id));

  it.each([
    [undefined, /Missing required parameter 'id'/],
    ['', /Missing required parameter 'id'/],
    [['1', '2'], /'id'.*once/],
    ['9223372036854775808', /'id'.*larger than the largest id/],
    ['12345678901234567890', /'id'.*larger than the largest id/],
    [`${'0'.repeat(22)}9223372036854775807`, /'id'.*digits only/],
    ['-1', /'id'.*digits only/],
    ['+1', /'id'.*digits only/],
    [' 1', /'id'.*digits only/],
    ['1e5', /'id'.*digits only/],
    ['0x10', /'id'.*digits only/],
    ['１２', /'id'.*digits only/],
    [12, /'id'.*numeric id/],
  ])('%j is refused (422)', (raw, message) => {
    const e = failure(() => parseNumericId('id', raw));
    expect(e.code).toBe('invalid');
    expect(e.message).toMatch(message);
  });

  it('echoes only a short, printable preview of the value', () => {
    const e = failure(() => parseNumericId('id', `\u0000<script>${'x'.repeat(500)}`));
    expect(e.message.length).toBeLessThan(200);
    expect(e.message).not.toContain('\u0000');
  });
});

describe('parseSpaceId', () => {
  it('accepts the platform form and refuses others', () => {
    expect(parseSpaceId('id', '1YqKDqWqdPLxV')).toBe('1YqKDqWqdPLxV');
    for (const bad of ['a b', 'x/y', 'ü', 'a'.repeat(65)]) expect(failure(() => parseSpaceId('id', bad)).code).toBe('invalid');
    expect(failure(() => parseSpaceId('id', undefined)).message).toMatch(/Missing required parameter 'id'/);
  });
});

describe('timeline cursors', () => {
  const key = Buffer.alloc(32, 7);
  const pos = { kind: 'tweets' as const, userId: 1234567890123456789n, lastId: 1800000000000000001n };

  it('round-trip, URL-safe, 46 characters', () => {
    const c = encodeCursor(key, pos);
    expect(c).toMatch(/^[A-Za-z0-9_-]{46}$/);
    expect(encodeURIComponent(c)).toBe(c);
    expect(decodeCursor(key, c, { kind: 'tweets', userId: pos.userId })).toEqual(pos);
  });

  it('refuses every single-character change, another key, another timeline', () => {
    const c = encodeCursor(key, pos);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < c.length; i++) {
      for (const ch of alphabet) {
        if (ch === c[i]) continue;
        const t = c.slice(0, i) + ch + c.slice(i + 1);
        expect(() => decodeCursor(key, t, { kind: 'tweets', userId: pos.userId }), t).toThrow(/'cursor'/);
      }
    }
    expect(() => decodeCursor(Buffer.alloc(32, 8), c, { kind: 'tweets', userId: pos.userId })).toThrow(/altered or not issued/);
    expect(() => decodeCursor(key, c, { kind: 'tweets-and-replies', userId: pos.userId })).toThrow(/another timeline/);
    expect(() => decodeCursor(key, c, { kind: 'tweets', userId: 1n })).toThrow(/another timeline/);
    expect(() => decodeCursor(key, '', { kind: 'tweets', userId: 1n })).toThrow(/empty/);
  });
});
