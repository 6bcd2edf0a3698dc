import { idOfDigits } from '../reads/params';
import { fail } from '../errors';

// Arguments arrive from IPC or HTTP: untrusted. Each handler reads them through these, so a bad
// value is a clear `invalid` naming the argument, never a crash.

const MAX_TEXT = 2_000;

export function record(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw fail.invalid('args', 'expected an object of named arguments.');
  return args as Record<string, unknown>;
}

/** A numeric id (up to 19 digits, within signed 64 bits) as a decimal string; never a JS number. */
export function idArg(args: Record<string, unknown>, name: string): string {
  const v = args[name];
  if (v === undefined || v === null || v === '') throw fail.missing(name);
  const s = typeof v === 'string' ? v.trim() : typeof v === 'bigint' ? v.toString() : '';
  const id = idOfDigits(s);
  if (id === null) throw fail.invalid(name, 'expected a numeric id.');
  return id.toString();
}

export function optionalIdArg(args: Record<string, unknown>, name: string): string | undefined {
  const v = args[name];
  return v === undefined || v === null || v === '' ? undefined : idArg(args, name);
}

export function intArg(args: Record<string, unknown>, name: string, min: number, max: number): number {
  const v = args[name];
  if (v === undefined || v === null || v === '') throw fail.missing(name);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw fail.invalid(name, `expected a whole number from ${min} to ${max}.`);
  return n;
}

export function optionalIntArg(args: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const v = args[name];
  return v === undefined || v === null || v === '' ? undefined : intArg(args, name, min, max);
}

export function textArg(args: Record<string, unknown>, name: string, maxLength = MAX_TEXT): string {
  const v = args[name];
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) throw fail.missing(name);
  if (typeof v !== 'string') throw fail.invalid(name, 'expected text.');
  if (v.length > maxLength) throw fail.invalid(name, `longer than ${maxLength} characters.`);
  return v;
}

export function optionalTextArg(args: Record<string, unknown>, name: string, maxLength = MAX_TEXT): string | undefined {
  const v = args[name];
  return v === undefined || v === null || v === '' ? undefined : textArg(args, name, maxLength);
}

export function oneOf<T extends string>(args: Record<string, unknown>, name: string, values: readonly T[], fallback?: T): T {
  const v = args[name];
  if ((v === undefined || v === null || v === '') && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw fail.invalid(name, `expected one of ${values.join(', ')}.`);
  }
  return v as T;
}

export function boolArg(args: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const v = args[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw fail.invalid(name, 'expected true or false.');
  return v;
}
