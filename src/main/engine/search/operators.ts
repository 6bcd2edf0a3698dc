import type { FilterName, OperatorName, OperatorValue } from './ast';

// The operator table: what each `name:` accepts and how its value is normalised. A checker
// returns the value or a sentence saying what was expected (the parser adds the column).

type Check = (raw: string) => OperatorValue | string;

const MAX_ID = (1n << 63n) - 1n; // SQLite INTEGER is a signed 64-bit value
// Counters beyond 2^53 cannot be compared exactly as JS numbers; no post has that many likes.
const MAX_COUNT = Number.MAX_SAFE_INTEGER;
// Unix seconds up to the year 9999 (253402300799), so microseconds stay exact in a double.
const MAX_UNIX_SECONDS = 253_402_300_799;

const screenName: Check = (raw) => {
  const name = raw.startsWith('@') ? raw.slice(1) : raw;
  return /^[A-Za-z0-9_]{1,50}$/.test(name)
    ? { type: 'name', name: name.toLowerCase() }
    : 'a screen name (letters, digits and _, at most 50)';
};

const id: Check = (raw) => {
  if (!/^[0-9]{1,19}$/.test(raw)) return 'a numeric post id (1 to 19 digits)';
  const value = BigInt(raw);
  return value <= MAX_ID ? { type: 'id', id: value } : `a post id at most ${MAX_ID}`;
};

/** YYYY-MM-DD (midnight UTC), or the platform's YYYY-MM-DD_HH:MM:SS_UTC; a real calendar date. */
const date: Check = (raw) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:_(\d{2}):(\d{2}):(\d{2})_UTC)?$/.exec(raw);
  if (!m) return 'a date as YYYY-MM-DD or YYYY-MM-DD_HH:MM:SS_UTC (UTC)';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, se] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) {
    return `a real calendar date and time (there is no ${raw})`;
  }
  return { type: 'time_us', us: ms * 1000 };
};

const unixSeconds: Check = (raw) => {
  if (!/^[0-9]{1,12}$/.test(raw) || Number(raw) > MAX_UNIX_SECONDS) return 'a time in whole unix seconds (e.g. 1700000000)';
  return { type: 'time_us', us: Number(raw) * 1_000_000 };
};

const count: Check = (raw) =>
  /^[0-9]{1,16}$/.test(raw) && Number(raw) <= MAX_COUNT ? { type: 'count', n: Number(raw) } : 'a whole number of at least 0';

const lang: Check = (raw) =>
  /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})?$/.test(raw)
    ? { type: 'name', name: raw.toLowerCase() }
    : 'a language code such as en, fi, und or zh-cn';

export const FILTERS: readonly FilterName[] = ['replies', 'quote', 'links', 'media', 'self_threads'];
const filter: Check = (raw) => {
  const name = raw.toLowerCase();
  return (FILTERS as readonly string[]).includes(name)
    ? { type: 'filter', filter: name as FilterName }
    : `one of ${FILTERS.map((f) => `filter:${f}`).join(', ')}`;
};

const url: Check = (raw) =>
  raw.length >= 1 && raw.length <= 512 ? { type: 'name', name: raw.toLowerCase() } : 'part of a link (1 to 512 characters)';

// #tag: letters, digits, marks and _ in any script; $cash: a letter then letters, digits, _ or .
const hashtag: Check = (raw) =>
  /^[\p{L}\p{N}\p{M}_]{1,139}$/u.test(raw) ? { type: 'name', name: raw.toLowerCase() } : 'a hashtag (letters, digits and _)';
const cashtag: Check = (raw) =>
  /^[A-Za-z][A-Za-z0-9_.]{0,31}$/.test(raw) ? { type: 'name', name: raw.toLowerCase() } : 'a cashtag (a letter, then letters, digits, _ or .)';

/** Operators written `name:value`, keyed by their lower-cased name. */
export const NAMED_OPERATORS: ReadonlyMap<string, { op: OperatorName; check: Check }> = new Map([
  ['from', { op: 'from', check: screenName }],
  ['to', { op: 'to', check: screenName }],
  ['conversation_id', { op: 'conversation_id', check: id }],
  ['since_id', { op: 'since_id', check: id }],
  ['max_id', { op: 'max_id', check: id }],
  ['quoted_tweet_id', { op: 'quoted_tweet_id', check: id }],
  ['since', { op: 'since', check: date }],
  ['until', { op: 'until', check: date }],
  ['since_time', { op: 'since_time', check: unixSeconds }],
  ['until_time', { op: 'until_time', check: unixSeconds }],
  ['lang', { op: 'lang', check: lang }],
  ['min_faves', { op: 'min_faves', check: count }],
  ['min_retweets', { op: 'min_retweets', check: count }],
  ['min_replies', { op: 'min_replies', check: count }],
  ['filter', { op: 'filter', check: filter }],
  ['url', { op: 'url', check: url }],
] as const);

/** Operators written with a sigil: `@name`, `#tag`, `$cash`. */
export const SIGIL_OPERATORS = {
  mention: { op: 'mention', check: screenName, sigil: '@', what: 'a screen name' },
  hashtag: { op: 'hashtag', check: hashtag, sigil: '#', what: 'a hashtag' },
  cashtag: { op: 'cashtag', check: cashtag, sigil: '$', what: 'a cashtag' },
} as const satisfies Record<string, { op: OperatorName; check: Check; sigil: string; what: string }>;

export const OPERATOR_LIST = [...NAMED_OPERATORS.keys()].map((n) => `${n}:`).join(', ');
