// The spec's JSON carries 64-bit ids as bare integers (detail responses), which JSON.stringify
// cannot write (BigInt throws) and JSON.parse cannot read (rounds above 2^53 = 9007199254740992).
// toJson writes BigInt as its digits; parseJsonExact reads integers beyond 2^53 back as BigInt.

import { memoized } from '../memo';

/** Thrown by RawJson.toJSON so that the native fast path hands the value to the writer below. */
const NEEDS_WRITER = Symbol('needs the exact writer');

/** JSON text spliced verbatim into toJson's output (already valid JSON, e.g. a stored fragment). */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON(): never {
    throw NEEDS_WRITER;
  }
}

/**
 * V8's JSON.stringify is several times faster than any writer in JS, and throws a TypeError on
 * the first BigInt it meets (or our sentinel on a RawJson). So each object or array is tried
 * natively first and written member by member only when that fails: a detail tweet takes three
 * or four native calls (its BigInt ids sit at the top and in `user`), a timeline page one.
 */
function nativeOrUndefined(v: object): string | undefined {
  // The TypeError's stack trace is never looked at; capturing it costs more than the attempt.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return JSON.stringify(v);
  } catch (err) {
    if (err === NEEDS_WRITER || err instanceof TypeError) return undefined;
    throw err;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Objects known to hold BigInt members (a detail Tweet and its User: their numeric ids), marked by
 * the serializers that build them. toJson writes these member by member at once instead of first
 * letting JSON.stringify fail on them: the failed attempts (a thrown TypeError each) were half of
 * the ~20 µs a detail Tweet took to write.
 */
const BIGINT_MEMBERS = new WeakSet<object>();

/** Marks `o` as holding BigInt members (see BIGINT_MEMBERS); returns it. */
export function withBigIntMembers<T extends object>(o: T): T {
  BIGINT_MEMBERS.add(o);
  return o;
}

// Object keys repeat on every response; their quoted forms are remembered.
const quotedKey = memoized(4096, (key) => JSON.stringify(key));

// Stored objects nest a few levels (content_state blocks: 4); 256 stops a crafted import from
// overflowing the stack while leaving far more room than any real object needs.
const MAX_DEPTH = 256;

/** JSON.stringify with BigInt (written as exact digits) and RawJson; compact, no spaces. */
export function toJson(value: unknown): string {
  return write(value, 0) ?? 'null';
}

function write(v: unknown, depth: number): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return 'null';
      if (depth > MAX_DEPTH) throw new RangeError(`JSON value nested deeper than ${MAX_DEPTH} levels`);
      if (v instanceof RawJson) return v.text;
      if (!BIGINT_MEMBERS.has(v)) {
        const native = nativeOrUndefined(v);
        if (native !== undefined) return native;
      }
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',';
          out += write(v[i], depth + 1) ?? 'null';
        }
        return out + ']';
      }
      if (v instanceof Date) return JSON.stringify(v);
      let out = '{';
      let first = true;
      for (const key of Object.keys(v)) {
        const item = write((v as Record<string, unknown>)[key], depth + 1);
        if (item === undefined) continue;
        out += (first ? '' : ',') + quotedKey(key) + ':' + item;
        first = false;
      }
      return out + '}';
    }
    default:
      return undefined; // undefined, functions, symbols: skipped, as JSON.stringify does
  }
}

// An integer token of 16+ digits outside a string (after `:`, `[`, `,` or at the start) is the
// only thing JSON.parse can round; everything else takes the native parser.
const LONG_INTEGER = /(?:^|[:[,])\s*-?\d{16,}\s*(?:[,\]}]|$)/;

/** JSON.parse that keeps integers beyond Number.MAX_SAFE_INTEGER exact, as BigInt. */
export function parseJsonExact(text: string): unknown {
  if (!LONG_INTEGER.test(text)) return JSON.parse(text);
  const p = new Parser(text);
  const value = p.value(0);
  p.skipSpace();
  if (p.pos !== text.length) p.fail('unexpected text after the value');
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  fail(why: string): never {
    throw new SyntaxError(`Invalid JSON at position ${this.pos}: ${why}`);
  }

  skipSpace(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      this.pos++;
    }
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    this.skipSpace();
    const s = this.s;
    const c = s[this.pos];
    if (c === '{') {
      this.pos++;
      const obj: Record<string, unknown> = {};
      this.skipSpace();
      if (s[this.pos] === '}') {
        this.pos++;
        return obj;
      }
      for (;;) {
        this.skipSpace();
        if (s[this.pos] !== '"') this.fail('expected a key');
        const key = this.string();
        this.skipSpace();
        if (s[this.pos] !== ':') this.fail("expected ':'");
        this.pos++;
        const item = this.value(depth + 1);
        // As JSON.parse does: "__proto__" is an own key, never the object's prototype.
        if (key === '__proto__') Object.defineProperty(obj, key, { value: item, enumerable: true, writable: true, configurable: true });
        else obj[key] = item;
        this.skipSpace();
        if (s[this.pos] === ',') this.pos++;
        else if (s[this.pos] === '}') {
          this.pos++;
          return obj;
        } else this.fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      this.pos++;
      const arr: unknown[] = [];
      this.skipSpace();
      if (s[this.pos] === ']') {
        this.pos++;
        return arr;
      }
      for (;;) {
        arr.push(this.value(depth + 1));
        this.skipSpace();
        if (s[this.pos] === ',') this.pos++;
        else if (s[this.pos] === ']') {
          this.pos++;
          return arr;
        } else this.fail("expected ',' or ']'");
      }
    }
    if (c === '"') return this.string();
    if (s.startsWith('true', this.pos)) return (this.pos += 4), true;
    if (s.startsWith('false', this.pos)) return (this.pos += 5), false;
    if (s.startsWith('null', this.pos)) return (this.pos += 4), null;
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(s);
    if (!m) this.fail('unexpected character');
    this.pos += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return Number(m[0]);
  }

  string(): string {
    const s = this.s;
    const start = this.pos;
    let i = start + 1;
    for (;;) {
      const c = s.charCodeAt(i);
      if (Number.isNaN(c)) {
        this.pos = i;
        this.fail('unterminated string');
      }
      if (c === 0x5c) i += 2;
      else if (c === 0x22) break;
      else i++;
    }
    this.pos = i + 1;
    return JSON.parse(s.slice(start, i + 1)) as string;
  }
}
