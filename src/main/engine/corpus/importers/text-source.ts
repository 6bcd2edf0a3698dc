import type { Readable } from 'node:stream';
import { bomOf, decodeChunks, EncodingError, type FallbackEncoding, type FileEncoding, LATIN1_CLI_HINT, Utf16Validator, Utf8Validator } from './decode';

// How one file's text is read: its encoding chosen (BOM, else UTF-8, else the run's fallback) by a
// validating pass over the whole file before anything is imported, then its decoded chunks for
// the import pass. Two reads of the file: UTF-8 validation runs at ~2.3 GB/s (native isUtf8 over
// 1 MiB chunks, measured on 100 MB of mixed text; UTF-16 ~150 MB/s in JS) against ~115 MB/s for
// decoding alone and far less for parsing and writing, and it means a refused file imports
// nothing rather than the records before its first bad byte.

/** Read size for files: 1 MiB, so a character is often split between two reads (decode.ts carries it). */
export const READ_CHUNK_BYTES = 1 << 20;

/** A fresh byte stream (no encoding set) from the start of the file or zip entry, at each call. */
export type OpenBytes = () => Promise<Readable>;

export type Choice = { encoding: FileEncoding } | { refused: string };

async function validate(stream: Readable, encoding: FileEncoding): Promise<void> {
  const v = encoding === 'utf-8' ? new Utf8Validator(0) : new Utf16Validator(0, encoding === 'utf-16be');
  try {
    for await (const chunk of stream) v.push(chunk as Buffer);
    v.end();
  } finally {
    stream.destroy();
  }
}

/** The file's encoding, or why it is refused (naming the byte offset of the first bad byte). */
export async function chooseEncoding(head: Buffer, open: OpenBytes, fallback: FallbackEncoding, latin1Hint = LATIN1_CLI_HINT): Promise<Choice> {
  const bom = bomOf(head);
  const encoding = bom?.encoding ?? 'utf-8';
  try {
    await validate(await open(), encoding);
    return { encoding };
  } catch (err) {
    if (!(err instanceof EncodingError)) throw err;
    // A BOM states the encoding: only unmarked files fall back.
    if (!bom && fallback === 'latin1') return { encoding: 'latin1' };
    return { refused: err.encoding === 'utf-8' ? err.message + latin1Hint : err.message };
  }
}

/** Bytes of `stream` as they go by, counted for progress reports. */
async function* counted(stream: Readable, onBytes: (bytesDone: number) => void): AsyncGenerator<Buffer> {
  let done = 0;
  for await (const chunk of stream) {
    done += (chunk as Buffer).length;
    onBytes(done);
    yield chunk as Buffer;
  }
}

/** The file's text, chunk by chunk, a leading BOM dropped (TextDecoder's default). */
export function textChunks(stream: Readable, encoding: FileEncoding, onBytes: (bytesDone: number) => void): AsyncGenerator<string> {
  return decodeChunks(counted(stream, onBytes), encoding);
}
