// Streaming readers that cut a file into records without holding the file: JSON Lines (one value
// per line) and JSON documents (a top-level array is unwrapped into its elements; concatenated
// values and a single object work too; an X archive's `window.YTD... = ` prefix is skipped). Each
// record comes with the line it starts on. Records are returned as text and parsed by the caller
// with parseJsonExact, so ids keep their digits (a JSON parser handing out doubles would not).

export interface RawRecord {
  line: number;
  text: string;
  /** Set instead of text when a record exceeds MAX_RECORD_CHARS. */
  oversized?: boolean;
}

/** No real record comes near this (a v2 page with includes is ~1 MB); a corrupt file might. */
export const MAX_RECORD_CHARS = 64 * 1024 * 1024;

export async function* jsonLines(chunks: AsyncIterable<string>): AsyncGenerator<RawRecord> {
  let pending: string[] = [];
  let pendingChars = 0;
  let line = 1;
  let oversized = false;
  for await (const chunk of chunks) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', from);
      if (nl < 0) break;
      const piece = chunk.slice(from, nl);
      if (!oversized) pending.push(piece);
      const text = oversized ? '' : pending.join('');
      if (oversized) yield { line, text: '', oversized: true };
      else if (text.trim() !== '') yield { line, text };
      pending = [];
      pendingChars = 0;
      oversized = false;
      line++;
      from = nl + 1;
    }
    if (from < chunk.length && !oversized) {
      pending.push(chunk.slice(from));
      pendingChars += chunk.length - from;
      if (pendingChars > MAX_RECORD_CHARS) {
        oversized = true;
        pending = [];
      }
    }
  }
  const rest = pending.join('');
  if (oversized) yield { line, text: '', oversized: true };
  else if (rest.trim() !== '') yield { line, text: rest };
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d, 0xfeff]);

/**
 * Top-level values of a JSON document, a top-level array unwrapped. Only brackets and strings are
 * tracked (not full JSON syntax): each cut-out value is then parsed, and a broken one is reported
 * by the caller with its line while the scan goes on with the next.
 */
export async function* jsonValues(chunks: AsyncIterable<string>, options: { skipPrefix?: boolean } = {}): AsyncGenerator<RawRecord> {
  let line = 1;
  let depth = 0; // bracket depth including the unwrapped array
  let base = 0; // depth at which values start: 1 inside the unwrapped array, else 0
  let seenTop = false;
  let inString = false;
  let escaped = false;
  let collecting = false;
  let primitive = false;
  let parts: string[] = [];
  let chars = 0;
  let startLine = 0;
  let oversized = false;
  let prefix = options.skipPrefix === true;

  for await (const chunk of chunks) {
    let start = collecting ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 0x0a) line++;
      if (prefix) {
        if (c === 0x5b || c === 0x7b) prefix = false;
        else continue;
      }
      if (collecting) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) {
            inString = false;
            if (primitive && depth === base) {
              yield* finish(chunk.slice(start, i + 1));
            }
          }
          continue;
        }
        if (primitive) {
          if (c === 0x2c || c === 0x5d || WS.has(c)) {
            yield* finish(chunk.slice(start, i));
            if (c === 0x5d && base === 1 && depth === 1) {
              depth = 0;
              base = 0;
            }
          }
          continue;
        }
        if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          depth--;
          if (depth === base) yield* finish(chunk.slice(start, i + 1));
        }
        continue;
      }
      // Between values.
      if (WS.has(c) || c === 0x2c) continue;
      if (c === 0x5d && base === 1 && depth === 1) {
        depth = 0;
        base = 0;
        continue;
      }
      if (c === 0x5b && !seenTop && depth === 0) {
        seenTop = true;
        depth = 1;
        base = 1;
        continue;
      }
      if (c === 0x3b && depth === 0) continue; // `window.YTD.x = [...];`
      seenTop = true;
      collecting = true;
      startLine = line;
      start = i;
      parts = [];
      chars = 0;
      oversized = false;
      if (c === 0x7b || c === 0x5b) {
        depth++;
        primitive = false;
      } else {
        primitive = true;
        if (c === 0x22) inString = true;
      }
    }
    if (collecting && start >= 0) {
      if (!oversized) {
        parts.push(chunk.slice(start));
        chars += chunk.length - start;
        if (chars > MAX_RECORD_CHARS) {
          oversized = true;
          parts = [];
        }
      }
    }
  }
  if (collecting) {
    // The document ended inside a value (a truncated file): hand it over; parsing will say why.
    const text = oversized ? '' : parts.join('');
    collecting = false;
    yield oversized ? { line: startLine, text: '', oversized: true } : { line: startLine, text };
  }

  function* finish(last: string): Generator<RawRecord> {
    collecting = false;
    primitive = false;
    if (oversized) {
      yield { line: startLine, text: '', oversized: true };
    } else {
      parts.push(last);
      yield { line: startLine, text: parts.join('') };
    }
    parts = [];
    chars = 0;
  }
}
