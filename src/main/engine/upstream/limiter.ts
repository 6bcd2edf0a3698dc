import type { Clock } from '../clock';
import { SlidingLog } from '../limits';

// One limiter for every outgoing upstream request of the process (all users, all jobs): the
// upstream counts them against one key, so Skein must never send more than per_minute in any 60 s
// window, whoever asks. The same sliding log as our own API's limiter, so the same exact promise.

export const UPSTREAM_WINDOW_MS = 60_000;

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((done) => setTimeout(done, ms));

export class UpstreamLimiter {
  private readonly log: SlidingLog;

  constructor(
    perMinute: number,
    private readonly clock: Clock,
  ) {
    this.log = new SlidingLog(perMinute, UPSTREAM_WINDOW_MS);
  }

  /** Follows `skein upstream set --per-minute` while running, keeping the recent admissions. */
  setPerMinute(perMinute: number): void {
    this.log.resize(perMinute);
  }

  /** Waits until one more request fits in the window, then counts it. */
  async acquire(sleep: Sleep): Promise<void> {
    for (;;) {
      const r = this.log.tryAdmit(this.clock.nowMs());
      if (r.admitted) return;
      await sleep(Math.max(1, r.retryAfterMs));
    }
  }
}

// Keyed by the clock's owner (the engine), so each engine, and each test's engine, has its own.
const shared = new WeakMap<object, UpstreamLimiter>();

/** The one limiter of this engine, following the configured per_minute. */
export function sharedUpstreamLimiter(owner: object, clock: Clock, perMinute: number): UpstreamLimiter {
  let limiter = shared.get(owner);
  if (!limiter) shared.set(owner, (limiter = new UpstreamLimiter(perMinute, clock)));
  else limiter.setPerMinute(perMinute);
  return limiter;
}
