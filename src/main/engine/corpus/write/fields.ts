import { CorpusInputError } from './input-error';
import { isRecord } from './json';

// Field readers for source objects. Each names the field it refuses, so an importer can say
// "line 812: user.id_str: ..." and the analyst can find it.

const DIGITS = /^\d{1,20}$/;
const MAX_ID = (1n << 63n) - 1n;

function idFromValue(value: unknown, field: string): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && DIGITS.test(value)) {
    const id = BigInt(value);
    if (id > MAX_ID) throw new CorpusInputError(field, `id ${value} does not fit in 64 bits`);
    return id;
  }
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'number') {
    throw new CorpusInputError(field, `numeric id ${value} is not exact (above 2^53 it must come as a string or through parseJsonExact)`);
  }
  throw new CorpusInputError(field, `expected a numeric id, got '${String(value).slice(0, 30)}'`);
}

/**
 * An id from `NAME_str` when present, else from `NAME` (digit string or exact number), as BigInt.
 * Returns null when both are null or absent.
 */
export function optId(obj: Record<string, unknown>, name: string, path = ''): bigint | null {
  const str = obj[`${name}_str`];
  if (str !== undefined && str !== null) return idFromValue(str, `${path}${name}_str`);
  return idFromValue(obj[name], `${path}${name}`);
}

export function id(obj: Record<string, unknown>, name: string, path = ''): bigint {
  const v = optId(obj, name, path);
  if (v === null) throw new CorpusInputError(`${path}${name}_str`, 'missing id');
  return v;
}

/** An id that is only ever a string in the spec (spaces, space creators). */
export function stringId(obj: Record<string, unknown>, name: string, path = ''): string {
  const v = obj[name];
  if (typeof v === 'string' && v.length > 0 && v.length <= 200) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  throw new CorpusInputError(`${path}${name}`, 'missing or not a string id');
}

/** undefined when absent (unknown: keep what is stored); refused when of the wrong type. */
export function optStr(obj: Record<string, unknown>, name: string, path = ''): string | undefined {
  const v = obj[name];
  if (v === undefined) return undefined;
  if (v === null) return undefined;
  if (typeof v !== 'string') throw new CorpusInputError(`${path}${name}`, `expected a string, got ${typeof v}`);
  return v;
}

/** A nullable string: undefined when absent, null when null. */
export function nullableStr(obj: Record<string, unknown>, name: string, path = ''): string | null | undefined {
  const v = obj[name];
  if (v === undefined || v === null) return v;
  if (typeof v !== 'string') throw new CorpusInputError(`${path}${name}`, `expected a string or null, got ${typeof v}`);
  return v;
}

export function optBool(obj: Record<string, unknown>, name: string, path = ''): number | undefined {
  const v = obj[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === 0 || v === 1) return v;
  if (v === 'true' || v === 'false') return v === 'true' ? 1 : 0;
  throw new CorpusInputError(`${path}${name}`, `expected true or false, got ${JSON.stringify(v)?.slice(0, 30)}`);
}

/** A counter or other integer; digit strings accepted (the X archive writes counts as strings). */
export function optInt(obj: Record<string, unknown>, name: string, path = ''): number | undefined {
  const v = obj[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return Number(v);
  throw new CorpusInputError(`${path}${name}`, `expected an integer, got ${JSON.stringify(v)?.slice(0, 30)}`);
}

export function optRecord(obj: Record<string, unknown>, name: string, path = ''): Record<string, unknown> | undefined {
  const v = obj[name];
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw new CorpusInputError(`${path}${name}`, 'expected an object');
  return v;
}

/** The keys of `obj` outside `modelled`, or undefined when there are none. */
export function unmodelled(obj: Record<string, unknown>, modelled: ReadonlySet<string>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(obj)) {
    if (modelled.has(key)) continue;
    (out ??= {})[key] = obj[key];
  }
  return out;
}
