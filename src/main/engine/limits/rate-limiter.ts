import type { Clock } from '../clock';
import { SlidingLog } from './sliding-log';

export const WINDOW_MS = 60_000;
export const DEFAULT_PER_MINUTE = 120;
/** Users whose last request is older than one window hold no state; swept every 10,000 checks. */
const SWEEP_EVERY = 10_000;

export interface RateState {
  limit: number;
  windowMs: number;
  /** Requests that would still pass in the current window. */
  remaining: number;
  /** Milliseconds until the oldest admission in the window leaves it (0 when the window is empty). */
  resetMs: number;
  /** 0 when admitted; otherwise milliseconds until the next request will pass. */
  retryAfterMs: number;
}

/**
 * The per-user limiter: never more than `limit` requests in any 60-second window for one user,
 * across all endpoints. State lives in this process (the process that serves the API and the
 * desktop app's IPC); docs/decisions.md "Rate limit" says why that is enough.
 */
export class RateLimiter {
  private readonly logs = new Map<number, { log: SlidingLog; lastMs: number }>();
  private checks = 0;

  constructor(
    private readonly clock: Clock,
    readonly windowMs: number = WINDOW_MS,
  ) {}

  private logOf(userId: number, limit: number, nowMs: number): SlidingLog {
    let entry = this.logs.get(userId);
    if (!entry) {
      entry = { log: new SlidingLog(limit, this.windowMs), lastMs: nowMs };
      this.logs.set(userId, entry);
    }
    entry.log.resize(limit);
    return entry.log;
  }

  /** Admits one request of `userId` under `limit` per window, or says when to retry. */
  tryAcquire(userId: number, limit: number): RateState & { admitted: boolean } {
    const nowMs = this.clock.nowMs();
    if (++this.checks % SWEEP_EVERY === 0) this.sweep(nowMs);
    const r = this.logOf(userId, limit, nowMs).tryAdmit(nowMs);
    if (r.admitted) this.logs.get(userId)!.lastMs = nowMs;
    return { admitted: r.admitted, limit, windowMs: this.windowMs, remaining: r.remaining, resetMs: r.resetMs, retryAfterMs: r.retryAfterMs };
  }

  peek(userId: number, limit: number): RateState {
    const nowMs = this.clock.nowMs();
    const entry = this.logs.get(userId);
    if (!entry) return { limit, windowMs: this.windowMs, remaining: limit, resetMs: 0, retryAfterMs: 0 };
    entry.log.resize(limit);
    return { limit, windowMs: this.windowMs, ...entry.log.peek(nowMs) };
  }

  /** Users tracked right now (for tests of the sweep). */
  get trackedUsers(): number {
    return this.logs.size;
  }

  private sweep(nowMs: number): void {
    for (const [userId, entry] of this.logs) {
      if (nowMs - entry.lastMs >= this.windowMs) this.logs.delete(userId);
    }
  }
}
