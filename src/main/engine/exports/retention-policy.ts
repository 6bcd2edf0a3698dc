import { fail } from '../errors';
import type { Db } from '../store/db';

// How long finished data files are kept (migration 060, one row): every file (the default), the
// files finished within the last N days, or the newest files up to a total size. In the database,
// not in the renderer like the CSV dialect, because the server applies it (exports/retention.ts).

export type RetentionPolicy = { keep: 'all' } | { keep: 'days'; days: number } | { keep: 'size'; max_bytes: number };

/** A GB here is 1024^3 bytes: the unit the app's sizes are shown in (KiB, MiB, GiB), and Windows'. */
export const GB_BYTES = 1024 ** 3;
export const MAX_DAYS = 36_500;
/** 1 PB: past any disk a data dir sits on. */
export const MAX_GB = 1_000_000;
export const DAY_MS = 86_400_000;

interface Row {
  keep: 'all' | 'days' | 'size';
  days: number | null;
  max_bytes: number | null;
  updated_at_ms: number;
}

export function retentionPolicy(db: Db): RetentionPolicy & { updated_ms: number | null } {
  const row = db.prepare('SELECT keep, days, max_bytes, updated_at_ms FROM export_retention WHERE id = 1').get() as Row | undefined;
  const updated_ms = row && row.updated_at_ms > 0 ? row.updated_at_ms : null;
  if (row?.keep === 'days' && row.days !== null) return { keep: 'days', days: row.days, updated_ms };
  if (row?.keep === 'size' && row.max_bytes !== null) return { keep: 'size', max_bytes: row.max_bytes, updated_ms };
  return { keep: 'all', updated_ms };
}

export function saveRetentionPolicy(db: Db, policy: RetentionPolicy, nowMs: number): void {
  db.prepare(
    `INSERT INTO export_retention (id, keep, days, max_bytes, updated_at_ms) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET keep = excluded.keep, days = excluded.days, max_bytes = excluded.max_bytes, updated_at_ms = excluded.updated_at_ms`,
  ).run(policy.keep, policy.keep === 'days' ? policy.days : null, policy.keep === 'size' ? policy.max_bytes : null, nowMs);
}

/**
 * The policy from untrusted input (the app, the CLI): keep 'all' | 'days' (with days, a whole
 * number 1..36,500) | 'gb' (with gb, a number above 0 up to 1,000,000; decimals allowed: 0.5).
 */
export function parseRetention(args: Record<string, unknown>): RetentionPolicy {
  const keep = args.keep;
  if (keep === 'all') {
    if (present(args.days) || present(args.gb)) throw fail.invalid('keep', "'all' takes neither days nor gb.");
    return { keep: 'all' };
  }
  if (keep === 'days') {
    if (present(args.gb)) throw fail.invalid('gb', "only with keep 'gb'.");
    const days = numberOf(args.days, 'days');
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) throw fail.invalid('days', `expected a whole number of days from 1 to ${MAX_DAYS}, not ${String(args.days)}.`);
    return { keep: 'days', days };
  }
  if (keep === 'gb') {
    if (present(args.days)) throw fail.invalid('days', "only with keep 'days'.");
    const gb = numberOf(args.gb, 'gb');
    const max_bytes = Math.round(gb * GB_BYTES);
    if (!(gb > 0) || gb > MAX_GB || max_bytes < 1) throw fail.invalid('gb', `expected a size in GB above 0 and up to ${MAX_GB.toLocaleString('en-US')}, not ${String(args.gb)}.`);
    return { keep: 'size', max_bytes };
  }
  throw fail.invalid('keep', "expected one of all, days, gb.");
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

function numberOf(v: unknown, name: string): number {
  if (!present(v)) throw fail.missing(name);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw fail.invalid(name, `expected a number, not ${JSON.stringify(v)}.`);
  return n;
}

/** Bytes in the binary units the CLI and the app use, labelled B, KB, MB, GB: "18.2 KB", "1.25 GB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number(v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)).toLocaleString('en-US')} ${units[i]}`;
}

/** The policy in words: "keep every file", "keep 30 days", "keep at most 10 GB". */
export function policyText(policy: RetentionPolicy): string {
  if (policy.keep === 'days') return `keep ${policy.days} ${policy.days === 1 ? 'day' : 'days'}`;
  if (policy.keep === 'size') return `keep at most ${sizeText(policy.max_bytes)}`;
  return 'keep every file';
}
