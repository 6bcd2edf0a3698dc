import { fail } from '../errors';

// Post and user ids are SQLite INTEGERs: signed 64-bit, so at most 19 significant digits and
// 2^63 - 1. Leading zeros are accepted (docs/api.md): "01800000000000000001" is post
// 1800000000000000001. 40 characters bound the text read, zeros included.
const INT64_MAX = 9223372036854775807n;
const ID_TEXT = /^\d{1,40}$/;

/** The id written by `text` (digits, leading zeros allowed), or null when it is not one within 64 bits. */
export function idOfDigits(text: string): bigint | null {
  if (!ID_TEXT.test(text)) return null;
  const id = BigInt(text);
  return id > INT64_MAX ? null : id;
}

/**
 * A numeric id parameter (spec "numeric ID, handled as a string"), as a BigInt: it never passes
 * through a JS number. Missing, non-digits, or beyond 2^63 - 1: 422 naming the parameter.
 */
export function parseNumericId(parameter: string, raw: unknown): bigint {
  if (raw === undefined || raw === null || raw === '') throw fail.missing(parameter);
  if (Array.isArray(raw)) throw fail.invalid(parameter, 'give it once, not several times.');
  if (typeof raw !== 'string') throw fail.invalid(parameter, 'expected a numeric id.');
  if (!ID_TEXT.test(raw)) {
    throw fail.invalid(parameter, `expected a numeric id (digits only, up to 19 besides leading zeros), got '${preview(raw)}'.`);
  }
  const id = idOfDigits(raw);
  if (id === null) throw fail.invalid(parameter, `${raw} is larger than the largest id, ${INT64_MAX}.`);
  return id;
}

// Space ids are the platform's media-style keys ("1YqKDqWqdPLxV"): letters and digits; `_` and
// `-` are allowed too so that imported ids of other forms still resolve. 64 bounds the lookup.
const SPACE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function parseSpaceId(parameter: string, raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') throw fail.missing(parameter);
  if (Array.isArray(raw)) throw fail.invalid(parameter, 'give it once, not several times.');
  if (typeof raw !== 'string' || !SPACE_ID.test(raw)) {
    throw fail.invalid(parameter, `expected a space id (letters, digits, '_' or '-', up to 64), got '${preview(String(raw))}'.`);
  }
  return raw;
}

/** A client's value echoed in a message: short, and only printable ASCII. */
export function preview(raw: string): string {
  const clean = raw.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}...` : clean;
}
