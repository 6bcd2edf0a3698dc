import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/main/engine/clock';
import { RateLimiter, rateLimitHeaders, retryAfterSeconds } from '../../src/main/engine/limits';

// Table-driven, in the manner of redis-cell: each row advances the manual clock, makes one request
// and states what the limiter must answer.
interface Step {
  at: number; // ms since start
  admitted: boolean;
  remaining: number;
  retryAfterMs?: number;
}

const cases: { name: string; limit: number; steps: Step[] }[] = [
  {
    name: 'limit 3: a burst of 3 passes, the 4th waits for the first to leave the window',
    limit: 3,
    steps: [
      { at: 0, admitted: true, remaining: 2 },
      { at: 10, admitted: true, remaining: 1 },
      { at: 20, admitted: true, remaining: 0 },
      { at: 30, admitted: false, remaining: 0, retryAfterMs: 59_970 },
      { at: 59_999, admitted: false, remaining: 0, retryAfterMs: 1 },
      { at: 60_000, admitted: true, remaining: 0 },
      { at: 60_005, admitted: false, remaining: 0, retryAfterMs: 5 },
      { at: 60_010, admitted: true, remaining: 0 },
      { at: 200_000, admitted: true, remaining: 2 },
    ],
  },
  {
    name: 'limit 1: one request per minute, exactly',
    limit: 1,
    steps: [
      { at: 0, admitted: true, remaining: 0 },
      { at: 1, admitted: false, remaining: 0, retryAfterMs: 59_999 },
      { at: 60_000, admitted: true, remaining: 0 },
      { at: 119_999, admitted: false, remaining: 0, retryAfterMs: 1 },
    ],
  },
  {
    name: 'limit 2: refused requests are not counted (a spinning client is not locked out)',
    limit: 2,
    steps: [
      { at: 0, admitted: true, remaining: 1 },
      { at: 30_000, admitted: true, remaining: 0 },
      { at: 30_001, admitted: false, remaining: 0, retryAfterMs: 29_999 },
      { at: 30_002, admitted: false, remaining: 0, retryAfterMs: 29_998 },
      { at: 60_000, admitted: true, remaining: 0 },
      { at: 90_000, admitted: true, remaining: 0 },
    ],
  },
  {
    name: 'a clock that steps back counts as standing still',
    limit: 2,
    steps: [
      { at: 50_000, admitted: true, remaining: 1 },
      { at: 10_000, admitted: true, remaining: 0 },
      { at: 20_000, admitted: false, remaining: 0, retryAfterMs: 60_000 },
      { at: 109_999, admitted: false, remaining: 0, retryAfterMs: 1 },
      { at: 110_000, admitted: true, remaining: 1 },
    ],
  },
];

describe('RateLimiter (table)', () => {
  it.each(cases)('$name', ({ limit, steps }) => {
    const start = Date.UTC(2026, 0, 1);
    const clock = new ManualClock(start);
    const limiter = new RateLimiter(clock);
    for (const [i, step] of steps.entries()) {
      clock.set(start + step.at);
      const r = limiter.tryAcquire(42, limit);
      expect({ i, admitted: r.admitted, remaining: r.remaining }).toEqual({ i, admitted: step.admitted, remaining: step.remaining });
      if (step.retryAfterMs !== undefined) expect({ i, retry: r.retryAfterMs }).toEqual({ i, retry: step.retryAfterMs });
    }
  });
});

describe('RateLimiter (properties)', () => {
  // A small deterministic PRNG (mulberry32) so the random arrivals replay.
  function rng(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it.each([1, 2, 3, 4, 5])('seed %i: never more than the limit in any 60 s window, never refuses with room, Retry-After is exact', (seed) => {
    const random = rng(seed);
    const limit = 1 + Math.floor(random() * 10);
    const start = Date.UTC(2026, 0, 1);
    const clock = new ManualClock(start);
    const limiter = new RateLimiter(clock);
    const admitted: number[] = [];
    let t = start;
    for (let i = 0; i < 3000; i++) {
      t += Math.floor(random() * random() * 20_000);
      clock.set(t);
      const inWindow = admitted.filter((a) => a > t - 60_000).length;
      const r = limiter.tryAcquire(7, limit);
      if (r.admitted) {
        expect(inWindow).toBeLessThan(limit);
        admitted.push(t);
        expect(r.remaining).toBe(limit - inWindow - 1);
      } else {
        expect(inWindow).toBe(limit);
        // at now + retryAfter a request passes; one millisecond earlier it would not
        const oldest = admitted.filter((a) => a > t - 60_000)[0]!;
        expect(r.retryAfterMs).toBe(oldest + 60_000 - t);
      }
    }
    // the promise, checked over every window that starts at an admission
    for (let i = 0; i < admitted.length; i++) {
      const inside = admitted.filter((a) => a >= admitted[i]! && a < admitted[i]! + 60_000).length;
      expect(inside).toBeLessThanOrEqual(limit);
    }
  });

  it('keeps users apart and applies a new limit at once', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < 3; i++) expect(limiter.tryAcquire(1, 3).admitted).toBe(true);
    expect(limiter.tryAcquire(1, 3).admitted).toBe(false);
    expect(limiter.tryAcquire(2, 3).admitted).toBe(true);
    // raised to 5: two more pass now
    expect(limiter.tryAcquire(1, 5)).toMatchObject({ admitted: true, remaining: 1 });
    expect(limiter.tryAcquire(1, 5)).toMatchObject({ admitted: true, remaining: 0 });
    expect(limiter.tryAcquire(1, 5).admitted).toBe(false);
    // lowered to 2: the 5 in the window keep it closed until they have left
    expect(limiter.tryAcquire(1, 2).admitted).toBe(false);
    expect(limiter.peek(1, 2)).toMatchObject({ remaining: 0, retryAfterMs: 60_000 });
    clock.set(59_999);
    expect(limiter.tryAcquire(1, 2).admitted).toBe(false);
    clock.set(60_000);
    expect(limiter.tryAcquire(1, 2)).toMatchObject({ admitted: true, remaining: 1 });
    expect(limiter.tryAcquire(1, 2)).toMatchObject({ admitted: true, remaining: 0 });
    expect(limiter.tryAcquire(1, 2).admitted).toBe(false);
  });

  it('forgets idle users', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(clock);
    for (let u = 1; u <= 5000; u++) limiter.tryAcquire(u, 120);
    clock.advance(60_000);
    for (let i = 0; i < 10_000; i++) limiter.tryAcquire(9_999, 100_000);
    expect(limiter.trackedUsers).toBe(1);
  });
});

describe('RateLimit headers (draft-ietf-httpapi-ratelimit-headers-10)', () => {
  it.each([
    [{ limit: 120, windowMs: 60_000, remaining: 37, resetMs: 11_001, retryAfterMs: 0 }, '"per-user";q=120;w=60', '"per-user";r=37;t=12'],
    [{ limit: 5, windowMs: 60_000, remaining: 5, resetMs: 0, retryAfterMs: 0 }, '"per-user";q=5;w=60', '"per-user";r=5;t=0'],
  ])('%o', (state, policy, current) => {
    expect(rateLimitHeaders(state)).toEqual({ 'ratelimit-policy': policy, ratelimit: current });
  });

  it.each([[1, 1], [999, 1], [1000, 1], [1001, 2], [59_970, 60]])('Retry-After of %i ms is %i s (rounded up)', (ms, s) => {
    expect(retryAfterSeconds(ms)).toBe(s);
  });
});

describe('an admission answers what a look right after it sees', () => {
  it('remaining and reset after each admission equal peek(), also once the ring has wrapped', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(clock);
    // Steps of 7 s against a limit of 5 in 60 s: the window fills, refuses, and the ring wraps.
    for (let i = 0; i < 40; i++) {
      clock.advance(i % 3 === 0 ? 7_000 : 1_000);
      const r = limiter.tryAcquire(1, 5);
      if (!r.admitted) continue;
      const seen = limiter.peek(1, 5);
      expect({ remaining: r.remaining, resetMs: r.resetMs }).toEqual({ remaining: seen.remaining, resetMs: seen.resetMs });
    }
  });
});
