import type { Db } from '../store/db';
import type { UpstreamConfig } from './config';
import { bookUpstreamSpend } from '../ledger';

// The spend book (upstream_spend, migration 054): what Skein spent at the upstream, in the
// upstream's unit (items, which are credits), one append-only line per answered request, with the
// request and who caused it (a local API user, the app, a job, the CLI). The money side is the
// ledger's upstream account (migration 059): each line is also a transfer 'upstream:<line id>',
// booked in the same transaction, and the full ledger check ('skein doctor') asserts the two agree
// line for line. The book stays the request log the budget and the running totals read (indexed
// by time). Its invariants: lines are never changed or removed (triggers), ids are the caller's so
// a retried booking is booked once, and the budget's spent figure is the sum of the lines since
// the budget was set (spentOfBudget).

export type SpendVia = 'api' | 'app' | 'job' | 'cli';

/** Who a request to the upstream is for: booked with its spend. */
export interface Requester {
  via: SpendVia;
  apiUserId?: number | null;
  jobId?: number | null;
}

export interface SpendLine {
  /** Caller-chosen, unique: `job:<id>:page:<n>` for a job's page; `req:<ms>:<16 hex>` for a read. */
  id: string;
  atMs: number;
  items: number;
  /** The upstream path asked for (query included; never the key, which travels in a header). */
  request: string;
  who: Requester;
}

/** What an answered request is billed, in items: one an item, at least one a request (the spec's price rule, docs/decisions.md). */
export function billedItems(returned: number): number {
  return Math.max(1, returned);
}

/**
 * Books one line, and its transfer in the ledger's upstream account (`upstream:<line id>`), in one
 * transaction; the same id again books nothing (a replayed page after a crash). True when booked.
 */
export function bookSpend(db: Db, line: SpendLine): boolean {
  return db.transaction(() => {
    const booked =
      db
        .prepare('INSERT INTO upstream_spend (id, at_ms, items, request, via, api_user_id, job_id) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING')
        .run(line.id, line.atMs, line.items, line.request.slice(0, 4096), line.who.via, line.who.apiUserId ?? null, line.who.jobId ?? null).changes === 1;
    if (booked) {
      bookUpstreamSpend(db, {
        transferId: `upstream:${line.id}`,
        items: line.items,
        causeUserId: line.who.apiUserId ?? null,
        jobId: line.who.jobId ?? null,
        memo: `${line.who.via}: ${line.request}`,
        nowMs: line.atMs,
      });
    }
    return booked;
  })();
}

/** Items spent since the budget was set (0 without a budget). */
export function spentOfBudget(db: Db, config: Pick<UpstreamConfig, 'budgetSetAtMs'>): number {
  if (config.budgetSetAtMs === null) return 0;
  return db.prepare('SELECT total(items) FROM upstream_spend WHERE at_ms >= ?').pluck().get(config.budgetSetAtMs) as number;
}

export interface SpendTotals {
  /** UTC day and month of `nowMs`, and all time; items and requests. */
  today: { items: number; requests: number };
  month: { items: number; requests: number };
  all: { items: number; requests: number };
  /** Per cause, all time: each local API user by id, the app, jobs by their owner, the CLI. */
  byUser: { apiUserId: number | null; via: SpendVia; items: number; requests: number }[];
}

/** The running totals shown in Settings and by `skein upstream show`; days and months are UTC, like exports. */
export function spendTotals(db: Db, nowMs: number): SpendTotals {
  const now = new Date(nowMs);
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const sum = (from: number) => {
    const r = db.prepare('SELECT total(items) AS items, count(*) AS requests FROM upstream_spend WHERE at_ms >= ?').get(from) as { items: number; requests: number };
    return { items: r.items, requests: r.requests };
  };
  const byUser = db
    .prepare(
      `SELECT coalesce(s.api_user_id, j.user_id) AS apiUserId, s.via AS via, total(s.items) AS items, count(*) AS requests
       FROM upstream_spend s LEFT JOIN jobs j ON j.id = s.job_id
       GROUP BY 1, 2 ORDER BY items DESC LIMIT 1000`,
    )
    .all() as SpendTotals['byUser'];
  return { today: sum(dayStart), month: sum(monthStart), all: sum(0), byUser };
}
