import { CorpusInputError } from './input-error';

// Post and user times are stored as integer microseconds since the epoch: the service prints six
// fractional digits (spec 2.1), and 2^53 us reaches the year 2255, so a JS number holds them exactly.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;
// Twitter v1.1 / X archive / space creator.legacy: `Wed Oct 10 20:19:24 +0000 2018`.
const V1 = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

// The spec's forms have four-digit years, and the detail Tweet's SQL (serialize/tweet-json-sql.ts)
// writes years 0000 to 9999: a time that lands outside them (an offset past either end) is refused.
const FIRST_MS = -62_167_219_200_000; // 0000-01-01T00:00:00Z
const END_MS = 253_402_300_800_000; // 10000-01-01T00:00:00Z

function utcUs(y: number, mo: number, d: number, h: number, mi: number, s: number, fracUs: number, offsetMin: number): number {
  // setUTCFullYear, because Date.UTC reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo, d);
  date.setUTCHours(h, mi, s, 0);
  const ms = date.getTime();
  // A date that does not exist (2026-02-30 would roll over to March 2nd) is refused instead.
  if (!Number.isFinite(ms) || mo < 0 || mo > 11 || h > 23 || mi > 59 || s > 59 || date.getUTCDate() !== d) return NaN;
  const utcMs = ms - offsetMin * 60_000;
  if (utcMs < FIRST_MS || utcMs >= END_MS) return NaN;
  return utcMs * 1000 + fracUs;
}

/** Microseconds since the epoch of any timestamp form the sources use, or NaN. */
export function parseTimestampUs(text: string): number {
  let m = ISO.exec(text);
  if (m) {
    const frac = Number(((m[7] ?? '') + '000000').slice(0, 6));
    const zone = m[8] ?? 'Z';
    let offsetMin = 0;
    if (zone !== 'Z') {
      const z = zone.replace(':', '');
      offsetMin = (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
    }
    return utcUs(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, frac, offsetMin);
  }
  m = V1.exec(text);
  if (m) {
    const offsetMin = (m[6] === '-' ? -1 : 1) * (Number(m[7]) * 60 + Number(m[8]));
    return utcUs(+m[9]!, MONTHS.indexOf(m[1]!), +m[2]!, +m[3]!, +m[4]!, +m[5]!, 0, offsetMin);
  }
  return NaN;
}

export function timestampUs(value: unknown, field: string): number {
  if (typeof value !== 'string') throw new CorpusInputError(field, `expected a timestamp string, got ${describe(value)}`);
  const us = parseTimestampUs(value);
  if (Number.isNaN(us)) throw new CorpusInputError(field, `unreadable timestamp '${value.slice(0, 40)}'`);
  return us;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function parts(us: number) {
  const ms = Math.floor(us / 1000);
  const d = new Date(ms);
  return { d, frac: us - ms * 1000 + (ms - Math.floor(ms / 1000) * 1000) * 1000 };
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ`: timelines and post details (spec 2.1). */
export function formatMicroZ(us: number): string {
  const { d, frac } = parts(us);
  return `${d.toISOString().slice(0, 19)}.${pad(frac, 6)}Z`;
}

/** `YYYY-MM-DDTHH:MM:SS+00:00`: article details (spec 2.1). */
export function formatOffset(us: number): string {
  return `${parts(us).d.toISOString().slice(0, 19)}+00:00`;
}

/** `Wed Oct 10 20:19:24 +0000 2018`: space creator.legacy.created_at (spec 2.5) and v1.1. */
export function formatV1(us: number): string {
  const d = parts(us).d;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}
