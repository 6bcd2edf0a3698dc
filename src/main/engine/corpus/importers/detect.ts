import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { bomOf } from './decode';

// Format detection from content, never from the file name: analysts rename files, and tools
// write .json for JSON Lines and .txt for anything.

export type Container =
  | { kind: 'zip' }
  | { kind: 'archive-js' } // window.YTD.<name>.partN = [...]
  | { kind: 'json-lines' }
  | { kind: 'json-document' }
  | { kind: 'unknown'; why: string };

const SNIFF_BYTES = 64 * 1024;

export function detectText(head: string): Container {
  const text = head.replace(/^\uFEFF/, '');
  const start = text.search(/\S/);
  if (start < 0) return { kind: 'unknown', why: 'the file is empty' };
  const rest = text.slice(start);
  if (rest.startsWith('window.YTD.')) return { kind: 'archive-js' };
  if (rest[0] === '[') return { kind: 'json-document' };
  if (rest[0] === '{') {
    const nl = rest.indexOf('\n');
    const firstLine = nl < 0 ? rest : rest.slice(0, nl);
    // One complete value on the first line: JSON Lines (a one-line document is a one-line JSONL).
    if (nl >= 0 || rest.length < SNIFF_BYTES) {
      try {
        JSON.parse(firstLine);
        return { kind: 'json-lines' };
      } catch {
        // A pretty-printed document, or a JSONL file whose first line is broken: the document
        // reader copes with both only for documents, so look at the second line.
        const second = nl < 0 ? '' : rest.slice(nl + 1).split('\n', 1)[0]!.trim();
        if (second.startsWith('{') && second.endsWith('}')) {
          try {
            JSON.parse(second);
            return { kind: 'json-lines' };
          } catch {
            /* fall through */
          }
        }
      }
    }
    return { kind: 'json-document' };
  }
  return { kind: 'unknown', why: `it starts with '${visible(rest.slice(0, 20).replace(/[ \t\r\n]+/g, ' '))}', not JSON, JSON Lines, an X archive part or a zip` };
}

/**
 * A file's bytes as they may be shown in a terminal or the app: control characters (C0, DEL, C1),
 * line and paragraph separators and bidirectional overrides as \xNN or \uNNNN. Shown raw, a file
 * holding ESC ] 0 ; ... BEL retitled the terminal and ESC [ 2 J cleared it.
 */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching the control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** The first SNIFF_BYTES of a file (fewer if it is shorter). */
export async function readFileHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The first SNIFF_BYTES of a stream (a zip entry), which is then closed. */
export async function readStreamHead(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of stream) {
    parts.push(chunk as Buffer);
    n += (chunk as Buffer).length;
    if (n >= SNIFF_BYTES) break;
  }
  stream.destroy();
  return Buffer.concat(parts).subarray(0, SNIFF_BYTES);
}

/**
 * The container from a file's first bytes. A byte-order mark says how to read the text (UTF-16
 * is transcoded, decode.ts); without one, NUL bytes mean binary. Only the brackets and the prefix
 * matter here, which are ASCII in UTF-8 and Latin-1 alike, so the head is read as UTF-8 whatever
 * the file's encoding turns out to be (decode.ts validates it in full).
 */
export function detectBytes(head: Buffer): Container {
  if (head.length >= 4 && head.readUInt32LE(0) === 0x04034b50) return { kind: 'zip' };
  const bom = bomOf(head);
  if (bom && bom.encoding !== 'utf-8') return detectText(new TextDecoder(bom.encoding).decode(head));
  if (head.includes(0)) {
    // ASCII text in UTF-16 without a mark has a NUL in every other byte.
    const sample = head.subarray(0, 256);
    let zeros = 0;
    for (let i = 0; i < sample.length; i++) if (sample[i] === 0) zeros++;
    const utf16 = zeros >= sample.length / 4 ? ' (UTF-16 without a byte-order mark? save it as UTF-8, or UTF-16 starting with its BOM)' : '';
    return { kind: 'unknown', why: `it is a binary file${utf16}` };
  }
  // A multi-byte character cut at the sniff boundary decodes as U+FFFD, which does not matter here.
  return detectText(head.toString('utf8'));
}
