// Parsing JSON without losing 64-bit ids. JSON.parse turns every number into a double, which
// rounds integers above 2^53 (9007199254740992, 16 digits). Node 20 has no reviver `context.source`,
// so integer literals of 16 or more digits are rewritten to strings before parsing: the digits
// arrive exactly, and every field reader here accepts an id or a counter as a digit string.

// A JSON string literal (skipped as is) or a bare integer literal of 16+ digits that is not part
// of a longer number (no digit, dot or exponent on either side).
const BIG_INT_OR_STRING = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;
const HAS_LONG_DIGIT_RUN = /\d{16}/;

/** JSON.parse, except that integers of 16 or more digits come back as strings of their digits. */
export function parseJsonExact(text: string): unknown {
  if (!HAS_LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
  return JSON.parse(text.replace(BIG_INT_OR_STRING, (m) => (m.charCodeAt(0) === 34 ? m : `"${m}"`)));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text for storage; BigInt values (ids) are written as their exact digits. */
export function stringifyExact(value: unknown): string {
  // A replacer function makes JSON.stringify several times slower, and sources rarely hold BigInt:
  // try the plain form first (it throws a TypeError on a BigInt).
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
}
