// A seeded pseudo-random source for the simulations: mulberry32 (32-bit state, good enough to
// pick test inputs, identical on every machine), so a failing run is replayed from its seed alone.

export interface Prng {
  /** In [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(xs: readonly T[]): T;
}

export function prng(seed: number): Prng {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, chance: (p) => next() < p, pick: (xs) => xs[int(xs.length)]! };
}
