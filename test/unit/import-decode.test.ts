import { describe, expect, it } from 'vitest';
import { EncodingError, Utf16Validator, Utf8Validator } from '../../src/main/engine/corpus/importers/decode';

// The streaming validators (issue 13, item 9) must report the same first bad byte wherever the
// file is cut into read chunks, including cuts inside a character.

function firstError(chunks: Buffer[], make: () => { push(b: Buffer): void; end(): void }): EncodingError | undefined {
  const v = make();
  try {
    for (const c of chunks) v.push(c);
    v.end();
    return undefined;
  } catch (err) {
    if (err instanceof EncodingError) return err;
    throw err;
  }
}

/** Every way of cutting `bytes` in two or three chunks. */
function* cuts(bytes: Buffer): Generator<Buffer[]> {
  for (let i = 0; i <= bytes.length; i++) {
    yield [bytes.subarray(0, i), bytes.subarray(i)];
    for (let j = i; j <= bytes.length; j += 3) yield [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)];
  }
}

describe('UTF-8 validation across chunks', () => {
  const valid = Buffer.from('aé€😀 “x” ñ 🏳️‍🌈');
  it('valid text passes however it is cut', () => {
    for (const c of cuts(valid)) expect(firstError(c, () => new Utf8Validator(0))).toBeUndefined();
  });

  it.each([
    ['a Latin-1 é before ASCII', Buffer.concat([valid, Buffer.from([0xe9]), Buffer.from('cole')]), valid.length, 0xe9],
    ['a stray continuation byte', Buffer.concat([valid, Buffer.from([0x80])]), valid.length, 0x80],
    ['an overlong encoding (C0 AF)', Buffer.concat([valid, Buffer.from([0xc0, 0xaf])]), valid.length, 0xc0],
    ['a UTF-16 surrogate encoded (ED A0 80)', Buffer.concat([valid, Buffer.from([0xed, 0xa0, 0x80])]), valid.length, 0xed],
    ['an emoji cut short by the next character', Buffer.concat([valid, Buffer.from([0xf0, 0x9f]), Buffer.from('a')]), valid.length, 0xf0],
  ])('%s: the same offset and byte for every cut', (_name, bytes, offset, byte) => {
    for (const c of cuts(bytes)) {
      const err = firstError(c, () => new Utf8Validator(0));
      expect([err?.offset, err?.byte]).toEqual([offset, byte]);
    }
  });

  it('a file ending inside a character: the offset where it starts, no byte', () => {
    const bytes = Buffer.concat([valid, Buffer.from([0xf0, 0x9f, 0x98])]);
    for (const c of cuts(bytes)) {
      const err = firstError(c, () => new Utf8Validator(0));
      expect([err?.offset, err?.byte]).toEqual([valid.length, undefined]);
    }
  });
});

describe('UTF-16 validation across chunks', () => {
  const le = Buffer.from('\uFEFFaé😀z', 'utf16le');
  it('valid text passes however it is cut, LE and BE', () => {
    for (const c of cuts(le)) expect(firstError(c, () => new Utf16Validator(0, false))).toBeUndefined();
    const be = Buffer.from(le).swap16();
    for (const c of cuts(be)) expect(firstError(c, () => new Utf16Validator(0, true))).toBeUndefined();
  });

  it('a lone surrogate is found at its offset however the text is cut', () => {
    const bytes = Buffer.concat([le, Buffer.from([0x3d, 0xd8]), Buffer.from('a', 'utf16le')]); // high surrogate, then 'a'
    for (const c of cuts(bytes)) expect(firstError(c, () => new Utf16Validator(0, false))?.offset).toBe(le.length);
  });
});
