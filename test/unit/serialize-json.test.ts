import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, RawJson, toJson, withBigIntMembers } from '../../src/main/engine/serialize/json';

// Seeded so a run is reproducible (and a failure can be replayed).
fc.configureGlobal({ seed: 20261122, numRuns: 300 });

describe('toJson', () => {
  it('writes BigInt as its exact digits, above 2^53 and at the int64 ends', () => {
    expect(toJson({ id: 1800000000000000001n })).toBe('{"id":1800000000000000001}');
    expect(toJson([9223372036854775807n, -9223372036854775808n, 0n])).toBe('[9223372036854775807,-9223372036854775808,0]');
  });

  it('matches JSON.stringify on values without BigInt', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(toJson(v)).toBe(JSON.stringify(v));
      }),
    );
  });

  it('skips undefined members like JSON.stringify, writes null for them in arrays, splices RawJson', () => {
    expect(toJson({ a: undefined, b: 1, c: () => 1 })).toBe('{"b":1}');
    expect(toJson([undefined, NaN, Infinity])).toBe('[null,null,null]');
    expect(toJson({ raw: new RawJson('{"x":12345678901234567890}') })).toBe('{"raw":{"x":12345678901234567890}}');
  });

  it('writes objects marked withBigIntMembers exactly like unmarked ones, whatever they hold', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.bigInt())), fc.boolean(), (members, nest) => {
        const plain = nest ? { inner: { ...members }, n: 1n } : { ...members };
        const marked = nest ? withBigIntMembers({ inner: withBigIntMembers({ ...members }), n: 1n }) : withBigIntMembers({ ...members });
        expect(toJson(marked)).toBe(toJson(plain));
        const reference = JSON.stringify(plain, (_k, v: unknown) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(-?\d+)@@"/g, '$1');
        expect(toJson(marked)).toBe(reference);
      }),
    );
  });

  it('escapes strings as JSON.stringify does (quotes, control characters, lone surrogates)', () => {
    const s = 'a"b\\c\n\u0000\u2028\ud800';
    expect(toJson({ [s]: s })).toBe(JSON.stringify({ [s]: s }));
  });
});

describe('parseJsonExact', () => {
  it('keeps integers beyond 2^53 exact as BigInt and leaves safe ones as numbers', () => {
    const v = parseJsonExact('{"id":1800000000000000001,"n":42,"f":1.5,"s":"1800000000000000001","neg":-9223372036854775808}') as Record<string, unknown>;
    expect(v).toEqual({ id: 1800000000000000001n, n: 42, f: 1.5, s: '1800000000000000001', neg: -9223372036854775808n });
  });

  it('round-trips through toJson byte for byte for any JSON with big integers', () => {
    const big = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), big, fc.boolean(), fc.constant(null), fc.array(tie('node')), fc.dictionary(fc.string(), tie('node'))),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const text = toJson(v);
        expect(toJson(parseJsonExact(text))).toBe(text);
      }),
    );
  });

  it('agrees with JSON.parse on ordinary JSON, including whitespace', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v, null, 2);
        expect(toJson(parseJsonExact(text))).toBe(JSON.stringify(JSON.parse(text)));
      }),
    );
    expect(parseJsonExact(' [ 12345678901234567890 , "x" ] ')).toEqual([12345678901234567890n, 'x']);
  });

  it('keeps a "__proto__" key as an own member, as JSON.parse does', () => {
    const v = parseJsonExact('{"__proto__":{"x":1},"id":12345678901234567890}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'id']);
    expect(toJson(v)).toBe('{"__proto__":{"x":1},"id":12345678901234567890}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses malformed text with a SyntaxError', () => {
    for (const bad of ['{"a":12345678901234567890', '[12345678901234567890,]', '12345678901234567890 x', '{"a" 12345678901234567890}', '[12345678901234567890, tru]']) {
      expect(() => parseJsonExact(bad), bad).toThrow(SyntaxError);
    }
  });
});
