// The spec's three timestamp forms (sections 2.1, 2.2, 2.5), all UTC:
//   timelines, post details:  2018-10-10T20:19:24.123456Z   (microseconds, six digits)
//   article details:          2018-10-10T20:19:24+00:00     (seconds; fractions dropped, not rounded)
//   space creator.legacy:     Wed Oct 10 20:19:24 +0000 2018
// Posts and users are stored in microseconds (bigint), spaces in milliseconds.

const US_PER_S = 1_000_000n;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

type Micros = bigint | number;

/** Whole seconds and the microseconds within the second, flooring (correct before 1970 too). */
function split(us: Micros): { seconds: number; micros: number } {
  // Up to 2^53 us (year 2255) a double holds the value exactly and this is plain arithmetic;
  // BigInt division costs several times more and is kept for the rest.
  const n = Number(us);
  if (Number.isSafeInteger(n)) {
    // n / 1e6 is rounded to a double and can land on the next whole second (…999999 us): the
    // remainder, exact in integers below 2^53, puts it back.
    let seconds = Math.floor(n / 1_000_000);
    let micros = n - seconds * 1_000_000;
    if (micros < 0) {
      seconds -= 1;
      micros += 1_000_000;
    } else if (micros >= 1_000_000) {
      seconds += 1;
      micros -= 1_000_000;
    }
    return { seconds, micros };
  }
  const big = BigInt(us);
  let seconds = big / US_PER_S;
  let micros = big % US_PER_S;
  if (micros < 0n) {
    micros += US_PER_S;
    seconds -= 1n;
  }
  return { seconds: Number(seconds), micros: Number(micros) };
}

/** "YYYY-MM-DDTHH:MM:SS" of whole seconds since the epoch. */
function isoSecondsPart(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** `2018-10-10T20:19:24.123456Z` from epoch microseconds. */
export function isoMicros(us: Micros): string {
  const { seconds, micros } = split(us);
  return `${isoSecondsPart(seconds)}.${String(micros).padStart(6, '0')}Z`;
}

/** `2018-10-10T20:19:24+00:00` from epoch microseconds (the fraction is dropped). */
export function isoOffset(us: Micros): string {
  return `${isoSecondsPart(split(us).seconds)}+00:00`;
}

/** `Wed Oct 10 20:19:24 +0000 2018` from epoch milliseconds. */
export function twitterDate(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${time} +0000 ${d.getUTCFullYear()}`;
}

const TWITTER_DATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/;

/**
 * A stored creator's `legacy.created_at` in the spec's form: kept when it already is, rewritten
 * from ISO-8601 or epoch milliseconds when an importer stored another form, otherwise kept as is.
 */
export function asTwitterDate(value: unknown): unknown {
  if (typeof value === 'string' && TWITTER_DATE.test(value)) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return twitterDate(value);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return twitterDate(ms);
  }
  return value;
}
