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

/** 10000-01-01T00:00:00Z: from here on the year has five digits and Date's own form is used. */
const YEAR_10000_S = 253_402_300_800;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * "YYYY-MM-DDTHH:MM:SS" of whole seconds since the epoch. From 1970 to 9999 by arithmetic (Howard
 * Hinnant's civil_from_days): a post detail writes two of these, and Date plus toISOString plus
 * slice took ~1.7 µs each against ~0.3. Other instants take Date's form, which is the reference.
 */
export function isoSecondsPart(seconds: number): string {
  if (!(seconds >= 0 && seconds < YEAR_10000_S)) return new Date(seconds * 1000).toISOString().slice(0, 19);
  const days = Math.floor(seconds / 86_400);
  const inDay = seconds - days * 86_400;
  // civil_from_days on the proleptic Gregorian calendar, eras of 400 years starting 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(inDay / 3_600);
  const minutes = Math.floor((inDay - hours * 3_600) / 60);
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(inDay % 60)}`;
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
