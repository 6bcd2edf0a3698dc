/**
 * The admission times of one user's last `limit` admitted requests, in a ring. A request at time t
 * passes iff fewer than `limit` admissions lie in the window (t - windowMs, t]; that is exactly the
 * promise "never more than `limit` in any window of windowMs", with no GCRA burst slack (GCRA with
 * a burst of N lets 2N through in the first window). Memory: 8 bytes per allowed request per
 * window (120 -> 960 bytes per user; the 100,000 maximum -> 800 KB).
 */
export class SlidingLog {
  private ring: Float64Array;
  /** Index of the oldest kept admission. */
  private head = 0;
  private count = 0;
  private last = -Infinity;

  constructor(
    private capacity: number,
    private readonly windowMs: number,
  ) {
    this.ring = new Float64Array(capacity);
  }

  get limit(): number {
    return this.capacity;
  }

  /** Keeps the newest admissions when the limit changes (skein users set-limit while running). */
  resize(limit: number): void {
    if (limit === this.capacity) return;
    const kept = Math.min(this.count, limit);
    const next = new Float64Array(limit);
    for (let i = 0; i < kept; i++) next[i] = this.at(this.count - kept + i);
    this.ring = next;
    this.capacity = limit;
    this.head = 0;
    this.count = kept;
  }

  /** The i-th oldest kept admission. */
  private at(i: number): number {
    return this.ring[(this.head + i) % this.capacity]!;
  }

  /** Admissions inside (now - windowMs, now]: the kept ones are sorted, so a binary search. */
  private inWindow(nowMs: number): { n: number; oldest: number } {
    const edge = nowMs - this.windowMs;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at(mid) > edge) hi = mid;
      else lo = mid + 1;
    }
    return { n: this.count - lo, oldest: lo < this.count ? this.at(lo) : NaN };
  }

  /**
   * Admits one request at nowMs if the window has room. A clock that steps back (NTP) is treated
   * as standing still, so the kept times stay sorted and a step back never opens extra room.
   */
  tryAdmit(rawNowMs: number): { admitted: boolean; remaining: number; resetMs: number; retryAfterMs: number } {
    const nowMs = Math.max(rawNowMs, this.last);
    const { n, oldest } = this.inWindow(nowMs);
    if (n >= this.capacity) {
      const wait = oldest + this.windowMs - nowMs;
      return { admitted: false, remaining: 0, resetMs: wait, retryAfterMs: wait };
    }
    if (this.count < this.capacity) {
      this.ring[(this.head + this.count) % this.capacity] = nowMs;
      this.count++;
    } else {
      this.ring[this.head] = nowMs;
      this.head = (this.head + 1) % this.capacity;
    }
    this.last = nowMs;
    // The window now holds one more, the admission just made; a ring that was full dropped its
    // head, which lay outside the window (n < capacity). So no second search (bench/api).
    const oldestAfter = n === 0 ? nowMs : oldest;
    return { admitted: true, remaining: this.capacity - n - 1, resetMs: oldestAfter + this.windowMs - nowMs, retryAfterMs: 0 };
  }

  /** The state without admitting anything (the account endpoint, headers of a refused request). */
  peek(rawNowMs: number): { remaining: number; resetMs: number; retryAfterMs: number } {
    const nowMs = Math.max(rawNowMs, this.last);
    const { n, oldest } = this.inWindow(nowMs);
    const resetMs = n === 0 ? 0 : oldest + this.windowMs - nowMs;
    return { remaining: this.capacity - n, resetMs, retryAfterMs: n >= this.capacity ? resetMs : 0 };
  }
}
