import { isUtf8 } from 'node:buffer';

// A file's bytes -> text, streamed (files run to hundreds of MB: never held whole). UTF-8 is the
// default; a byte-order mark says UTF-8 (EF BB BF, stripped: left in, it broke the first JSONL
// record) or UTF-16 LE/BE (FF FE / FE FF, transcoded). Text that is not valid in its encoding is
// refused with the byte offset of the first bad byte, before anything is imported: decoded with
// U+FFFD replacements, a Latin-1 "café" was stored as "caf\uFFFD" and the import reported clean
// (issue 13). `--encoding latin1` reads such files as Latin-1 instead.

/** How a run reads files without a byte-order mark that are not valid UTF-8. */
export type FallbackEncoding = 'utf8' | 'latin1';

export type FileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';

export const ENCODING_NAMES: Record<FileEncoding, string> = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16 LE', 'utf-16be': 'UTF-16 BE', latin1: 'Latin-1' };

/** The encoding a byte-order mark at the start of `head` announces, and the mark's length. */
export function bomOf(head: Uint8Array): { encoding: FileEncoding; bomBytes: number } | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomBytes: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2 };
  return undefined;
}

/** Bytes that are not valid text in the file's encoding: where, and which byte. */
export class EncodingError extends Error {
  override name = 'EncodingError';
  constructor(
    readonly encoding: FileEncoding,
    /** 0-based offset in the file (as xxd and hexdump count; a BOM counts). */
    readonly offset: number,
    readonly byte: number | undefined,
  ) {
    const at = `at byte ${offset.toLocaleString('en-US')}`;
    const which = byte === undefined ? ' (the file ends inside a character)' : ` (0x${byte.toString(16).toUpperCase().padStart(2, '0')})`;
    super(`not valid ${ENCODING_NAMES[encoding]} ${at}${which}`);
  }
}

/**
 * What a refusal for invalid UTF-8 adds: how to read the file as Latin-1 instead, in the words of
 * the surface that started the import (ImportOptions.latin1Hint); the CLI's by default.
 */
export const LATIN1_CLI_HINT = '; if the file is Latin-1, import it with --encoding latin1';

// --- validation: one streaming pass before the import, so a refused file imports nothing.

/**
 * Length of the bytes at the end of `b` that start a UTF-8 sequence not yet complete (0-3): they
 * wait for the next chunk. A malformed tail is not held back; isUtf8 then fails on it.
 */
function incompleteTail(b: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const c = b[b.length - back]!;
    if ((c & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/**
 * Offset (in `b`) of the start of the first ill-formed UTF-8 sequence, by the WHATWG decoder's
 * rules (those of TextDecoder: no overlongs, no surrogates, nothing above U+10FFFF), or -1.
 * `final`: a sequence cut by the end of `b` is an error too.
 */
export function firstBadUtf8(b: Uint8Array, final: boolean): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= b.length) return final ? i : -1;
      const n = b[i + k]!;
      if (n < lo || n > hi) return i;
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return -1;
}

/** Validates UTF-8 chunks as they stream by; `offset` is where the first chunk starts in the file. */
export class Utf8Validator {
  private carry: Buffer = Buffer.alloc(0);
  constructor(private offset: number) {}

  /** Throws EncodingError at the first bad byte. Native isUtf8 (~GB/s); the JS scan only locates an error. */
  push(chunk: Buffer): void {
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = data.length - incompleteTail(data);
    const body = data.subarray(0, cut);
    if (!isUtf8(body)) this.fail(body, firstBadUtf8(body, true));
    this.offset += cut;
    this.carry = Buffer.from(data.subarray(cut));
  }

  /** At the end of the file: a held-back tail is a character the file ends inside. */
  end(): void {
    if (!this.carry.length) return;
    const at = firstBadUtf8(this.carry, false);
    if (at >= 0) this.fail(this.carry, at);
    throw new EncodingError('utf-8', this.offset, undefined);
  }

  private fail(b: Buffer, at: number): never {
    throw new EncodingError('utf-8', this.offset + at, b[at]);
  }
}

/** Validates UTF-16 chunks: every high surrogate followed by a low one, no lone low one, no odd byte. */
export class Utf16Validator {
  private carry: Buffer = Buffer.alloc(0);
  constructor(private offset: number, private readonly bigEndian: boolean) {}

  push(chunk: Buffer): void {
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    let i = 0;
    for (; i + 1 < data.length; i += 2) {
      const u = this.bigEndian ? data.readUInt16BE(i) : data.readUInt16LE(i);
      if (u < 0xd800 || u > 0xdfff) continue;
      if (u >= 0xdc00) this.fail(i, data);
      if (i + 3 >= data.length) break; // a high surrogate at the end of the chunk: wait for its pair
      const next = this.bigEndian ? data.readUInt16BE(i + 2) : data.readUInt16LE(i + 2);
      if (next < 0xdc00 || next > 0xdfff) this.fail(i, data);
      i += 2;
    }
    this.offset += i;
    this.carry = Buffer.from(data.subarray(i));
  }

  end(): void {
    if (this.carry.length) throw new EncodingError(this.bigEndian ? 'utf-16be' : 'utf-16le', this.offset, undefined);
  }

  private fail(i: number, data: Buffer): never {
    throw new EncodingError(this.bigEndian ? 'utf-16be' : 'utf-16le', this.offset + i, data[i]);
  }
}

// --- decoding: the import's pass.

// Windows-1252 for 0x80-0x9F: files called Latin-1 are mostly written by Windows tools, whose
// curly quotes, dashes and euro sign sit there; strict ISO-8859-1 would store invisible C1
// control characters instead. (The WHATWG Encoding Standard maps the label "latin1" to
// windows-1252 for the same reason.) The five bytes Windows-1252 leaves undefined stay C1.
const CP1252_80_9F = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function latin1(chunk: Buffer): string {
  return chunk.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!);
}

/**
 * Text from bytes in `encoding` (a leading BOM dropped), chunk by chunk; a character
 * split across chunks is carried over. Fatal: a file changed since it was validated stops here.
 */
export async function* decodeChunks(bytes: AsyncIterable<Buffer>, encoding: FileEncoding): AsyncGenerator<string> {
  if (encoding === 'latin1') {
    for await (const chunk of bytes) yield latin1(chunk);
    return;
  }
  const decoder = new TextDecoder(encoding, { fatal: true });
  for await (const chunk of bytes) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}
