// The benchmark harness's vocabulary. A benchmark measures the thing and its baseline side by side
// in one run (interleaved, so both see the same machine state) and reports medians, the ratio
// subject/baseline, and peak memory. Nothing here asserts a timing: benchmarks inform, tests decide.

export interface BenchContext {
  /** `npm run bench -- --quick`: small sizes, the whole suite in under a minute on 2 cores. */
  quick: boolean;
  /** A scratch directory for this benchmark, removed afterwards. */
  dir: string;
  log(message: string): void;
}

export interface Side {
  /** Median of the per-run values, in `unit`. */
  median: number;
  values: number[];
  peakRssMb?: number;
}

export interface BenchResult {
  subject: Side;
  baseline?: Side;
  /** Extra figures worth keeping (p99 latency, rows, file size...). */
  extra?: Record<string, number | string>;
}

export interface Bench {
  name: string;
  /** What a value means, e.g. "rows/s", "req/s", "ms". */
  unit: string;
  higherIsBetter: boolean;
  /** The target, in words (e.g. "ratio >= 0.5", "flat memory"). */
  target?: string;
  baselineName?: string;
  run(ctx: BenchContext): Promise<BenchResult>;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** Peak resident memory (MiB) of this process while `fn` runs, sampled every 5 ms. */
export async function withPeakRss<T>(fn: () => Promise<T> | T): Promise<{ value: T; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakRssMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Runs subject and baseline alternately `runs` times; each call returns a value in the bench's
 * unit (for throughput: items / seconds). Alternating keeps a warm-up or a noisy neighbour from
 * favouring one side.
 */
export async function sideBySide(
  runs: number,
  subject: (run: number) => Promise<number> | number,
  baseline: (run: number) => Promise<number> | number,
): Promise<{ subject: Side; baseline: Side }> {
  const s: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    b.push(await baseline(i));
    s.push(await subject(i));
  }
  return { subject: { median: median(s), values: s }, baseline: { median: median(b), values: b } };
}

/** Items per second of `fn`, which returns how many items it handled. */
export async function throughput(fn: () => Promise<number> | number): Promise<number> {
  const started = process.hrtime.bigint();
  const items = await fn();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return items / seconds;
}
