import type { Clock } from '../clock';
import { prep } from '../ledger/prep';
import type { Db } from '../store/db';
import { whenWriteFree } from '../store/when-write-free';

// One limiter for every outgoing upstream request (all users, all jobs, all threads): the
// upstream counts them against one key, so Skein must never send more than per_minute in any 60 s
// window, whoever asks. A sliding log like our own API's limiter (the same exact promise: a request
// at t passes iff fewer than per_minute admissions lie in (t - 60 s, t]), kept in the database
// (upstream_admissions, migration 054) because job workers are threads with their own connections.
// At the real service's 120 a minute that is two small writes a second at most.

export const UPSTREAM_WINDOW_MS = 60_000;

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((done) => setTimeout(done, ms));

export class UpstreamLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The configured limit, read at each admission so `skein upstream set --per-minute` applies at once. */
    private readonly perMinute: () => number,
  ) {}

  /**
   * Admits one request now if the window has room (and logs it); otherwise the ms until the oldest
   * admission leaves the window. One IMMEDIATE transaction, so two threads never both take the last slot.
   */
  tryAdmit(reserve: Reservation = NO_RESERVATION): { admitted: true; seq: number } | { admitted: false; retryAfterMs: number } {
    return this.db.transaction(() => {
      // A clock that steps back (NTP) counts as standing still: never earlier than the last admission.
      const last = (prep(this.db, 'SELECT max(at_ms) FROM upstream_admissions').pluck().get() as number | null) ?? -Infinity;
      const now = Math.max(this.clock.nowMs(), last);
      // Admissions that left the window go first, their reservations with them: a caller that died
      // before booking its answer holds the budget for 60 s at most.
      prep(this.db, 'DELETE FROM upstream_admissions WHERE at_ms <= ?').run(now - UPSTREAM_WINDOW_MS);
      const left = reserve.budgetLeft();
      if (left !== null && reserve.items > 0) {
        const reserved = prep(this.db, 'SELECT total(reserved_items) FROM upstream_admissions').pluck().get() as number;
        if (reserve.items > left - reserved) throw reserve.refuse(Math.max(0, left - reserved));
      }
      const limit = this.perMinute();
      const inWindow = prep(this.db, 'SELECT at_ms FROM upstream_admissions ORDER BY at_ms DESC LIMIT ?').pluck().all(limit) as number[];
      if (inWindow.length >= limit) return { admitted: false as const, retryAfterMs: inWindow[limit - 1]! + UPSTREAM_WINDOW_MS - now };
      const seq = prep(this.db, 'INSERT INTO upstream_admissions (at_ms, reserved_items) VALUES (?, ?)').run(now, reserve.items).lastInsertRowid;
      return { admitted: true as const, seq: Number(seq) };
    }).immediate();
  }

  /**
   * Waits until one more request fits in the window (and in the budget), then counts it; its
   * admission's seq. The admission is a write: it waits for another connection's write lock off the
   * event loop (whenWriteFree), as the read's other writes do (gateway.ts).
   */
  async acquire(sleep: Sleep, reserve: Reservation = NO_RESERVATION): Promise<number> {
    for (;;) {
      const r = await whenWriteFree(this.db, () => this.tryAdmit(reserve));
      if (r.admitted) return r.seq;
      await sleep(Math.max(1, r.retryAfterMs));
    }
  }

  /** The answer is booked (or there was none): the admission no longer holds budget. */
  async settle(seq: number): Promise<void> {
    await whenWriteFree(this.db, () => prep(this.db, 'UPDATE upstream_admissions SET reserved_items = 0 WHERE seq = ? AND reserved_items > 0').run(seq));
  }
}

/**
 * The most a request may bring back, held against the budget from its admission until its answer
 * is booked: concurrent requests (the API, the app, two job threads) can never together pass it.
 */
export interface Reservation {
  items: number;
  /** Items the budget still allows (spent lines subtracted), or null without a budget. */
  budgetLeft(): number | null;
  /** The error thrown when the request does not fit; `left` is what the budget still allows. */
  refuse(left: number): Error;
}

const NO_RESERVATION: Reservation = { items: 0, budgetLeft: () => null, refuse: () => new Error('unreachable') };
