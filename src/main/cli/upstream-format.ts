import { FRESH_KINDS, MAX_FRESH_MS, type FreshKind } from '../engine/upstream';
import { UsageError } from './command';

// Durations and dollars as `skein upstream` reads and prints them: one grammar both ways, so
// what `show` prints can be pasted back into `set --fresh`.

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;
const DURATION = /^(\d{1,15})(ms|s|m|h|d)?$/;

/**
 * `90s`, `15m`, `24h`, `7d`, `500ms`, or `0` (always refetch). A bare number other than 0 is
 * refused: `--fresh post=15` could mean seconds or minutes, a factor of 60 apart.
 */
export function parseDuration(text: string, what: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new UsageError(`${what}: '${text}' is not a duration; use a whole number with s, m, h or d (90s, 15m, 24h, 7d) or 0.`);
  const n = Number(m[1]);
  if (m[2] === undefined && n !== 0) throw new UsageError(`${what}: '${text}' needs a unit (s, m, h or d), e.g. ${n}m or ${n}h.`);
  const ms = n * UNIT_MS[(m[2] ?? 'ms') as Unit];
  if (ms > MAX_FRESH_MS) throw new UsageError(`${what}: '${text}' is longer than 365d; for "never refetch" use --mode offline.`);
  return ms;
}

/** The largest unit that divides the duration exactly: 86400000 → `1d`, 5400000 → `90m`, 0 → `0`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0';
  for (const unit of ['d', 'h', 'm', 's'] as const) if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${ms}ms`;
}

/**
 * `--fresh post=24h,page=15m` (the option may also be repeated): only the kinds named. A kind
 * named twice is refused rather than letting the last one win silently.
 */
export function parseFresh(values: string[]): Partial<Record<FreshKind, number>> {
  const out: Partial<Record<FreshKind, number>> = {};
  for (const value of values) {
    const parts = value.split(',').map((p) => p.trim());
    for (const part of parts) {
      const eq = part.indexOf('=');
      if (eq <= 0) throw new UsageError(`--fresh takes KIND=DURATION[,KIND=DURATION...] (kinds ${FRESH_KINDS.join(', ')}), not '${part}'.`);
      const kind = part.slice(0, eq).trim();
      if (!(FRESH_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--fresh: unknown kind '${kind}' (use ${FRESH_KINDS.join(', ')}).`);
      if (kind in out) throw new UsageError(`--fresh: ${kind} is given twice.`);
      out[kind as FreshKind] = parseDuration(part.slice(eq + 1), `--fresh ${kind}`);
    }
  }
  return out;
}

/**
 * Dollars for JSON: rounded to a millionth of a dollar, so 12 items at $0.0002 are 0.0024 and not
 * 0.0024000000000000002 (the price has 4 decimals; 6 leave room for a price of $0.000001).
 */
export function usdOf(items: number, pricePerItemUsd: number): number {
  return Math.round(items * pricePerItemUsd * 1e6) / 1e6;
}

/** Dollars for people: cents at least, up to 4 decimals, so 12 items show as $0.0024, not $0.00. */
export function dollars(usd: number): string {
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false })}`;
}
