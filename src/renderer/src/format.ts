// Formatting for people: dates in the analyst's locale, in their zone or UTC (a setting,
// stores/time-zone.ts) with the zone's name shown; counts with separators.
export type DisplayZone = 'local' | 'utc';

function formatters(zone: DisplayZone) {
  const timeZone = zone === 'utc' ? { timeZone: 'UTC' } : {};
  return {
    // dateStyle cannot be combined with timeZoneName, hence the fields one by one.
    dateTime: new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', ...timeZone }),
    dateOnly: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', ...timeZone }),
  };
}

let current = formatters('local');
let currentZone: DisplayZone = 'local';

/** Called by the time-zone setting; the app re-renders its views after it (App.tsx keys them by zone). */
export function setDisplayZone(zone: DisplayZone): void {
  if (zone === currentZone) return;
  currentZone = zone;
  current = formatters(zone);
}
const number = new Intl.NumberFormat();
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/** Any of the spec's timestamp forms (ISO with Z or +00:00, "Wed Oct 10 20:19:24 +0000 2018", epoch ms). */
export function toMs(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value;
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value.replace(/\.(\d{3})\d*Z$/, '.$1Z'));
  return Number.isNaN(ms) ? null : ms;
}

/** A date-time column's width: "Oct 31, 2026, 10:57 AM GMT+5:30" whole, at the table's font. */
export const DATE_TIME_PX = 222;

export const fmtDateTime = (value: string | number | null | undefined) => {
  const ms = toMs(value);
  return ms === null ? '—' : current.dateTime.format(ms);
};
export const fmtDate = (value: string | number | null | undefined) => {
  const ms = toMs(value);
  return ms === null ? '—' : current.dateOnly.format(ms);
};
export const fmtInt = (n: number | null | undefined) => (n === null || n === undefined ? '—' : number.format(n));
export const fmtCompact = (n: number | null | undefined) => (n === null || n === undefined ? '—' : compact.format(n));

export function fmtBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function fmtDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
