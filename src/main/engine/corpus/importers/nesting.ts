// A record nested deeper than any real one is refused before it is parsed. V8's JSON.parse copes
// with any depth (100,000 nested arrays parse fine), but the code after it walks values
// recursively (records.ts shapeOf/importValue, JSON.stringify when a post is stored, the
// serializers that read it back): 100,000 levels overflowed the stack and ended the whole import
// (issue 13). Refusing at the door keeps such values out of the corpus, so nothing downstream
// meets them either.

/**
 * Arrays and objects inside each other, at most. The deepest real record seen is 7 levels (an
 * article's details; a v1.1 retweet of a quote with media is ~10): 1,000 is far from both real
 * data and the stack (in Node 20, JSON.stringify overflows at ~4,150 nested arrays and a
 * one-frame recursive walk at ~12,500, fewer when called deep in a stack).
 */
export const MAX_NESTING_DEPTH = 1_000;

export const NESTING_REASON = `nested deeper than ${MAX_NESTING_DEPTH} levels`;

/**
 * Whether `text` (one record's JSON) nests arrays/objects deeper than MAX_NESTING_DEPTH.
 * First a bound: depth can never exceed the number of '[' and '{' in the text, counted with
 * indexOf (about 0.4 us for a 1.6 KB post, against ~20 us to parse it), so a real record is
 * cleared without a character-by-character scan. Only a text with more opening brackets than the
 * limit is scanned exactly, brackets inside strings ignored.
 */
export function nestsTooDeep(text: string): boolean {
  if (!opensExceed(text, MAX_NESTING_DEPTH)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function opensExceed(text: string, limit: number): boolean {
  let n = 0;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++n > limit) return true;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++n > limit) return true;
  return false;
}
