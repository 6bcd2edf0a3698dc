import type { Engine } from '../src/main/engine/engine';
import { buildHttpApp } from '../src/main/http/app';
import { type BenchResult, percentile } from './lib';
import { walFileBytes } from './wal';

// The API as the latency benches (export.bench.ts, import.bench.ts) see it while a big write runs:
// the whole app on this process's engine, and the same app without metering beside it. A metered
// read commits its charge before answering, so it also waits for the write lock whenever the other
// writer holds it; the unmetered one only reads. The difference between their p99s is the wait for
// the lock, the rest is what a read shares with the writer (CPU, disk, checkpoints).

export interface LatencySample {
  metered: number[];
  unmetered: number[];
}

export interface LatencyServers {
  /** `n` requests of each kind, alternating, one at a time; milliseconds each. */
  sample(n: number, path: (i: number) => string, into?: LatencySample): Promise<LatencySample>;
  close(): Promise<void>;
}

export async function latencyServers(engine: Engine, key: string): Promise<LatencyServers> {
  const metered = await buildHttpApp(engine);
  const unmetered = await buildHttpApp(engine, { metering: false });
  await metered.listen({ port: 0, host: '127.0.0.1' });
  await unmetered.listen({ port: 0, host: '127.0.0.1' });
  const portOf = (app: typeof metered) => (app.server.address() as { port: number }).port;
  const ports = { metered: portOf(metered), unmetered: portOf(unmetered) };
  const once = async (port: number, path: string): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return performance.now() - t0;
  };
  return {
    async sample(n, path, into = { metered: [], unmetered: [] }) {
      for (let i = 0; i < n; i++) {
        into.metered.push(await once(ports.metered, path(i)));
        into.unmetered.push(await once(ports.unmetered, path(i)));
      }
      return into;
    },
    async close() {
      await metered.close();
      await unmetered.close();
    },
  };
}

/** How many idle requests of each kind a full run samples before the busy phase, and again after it. */
export const IDLE_SAMPLE = 4000;

/**
 * The idle side is sampled twice, before the busy phase and after it, and pooled. One sample of
 * 2,000 before it made the baseline p99 the 20th slowest request, and it read 1.2 to 3.6 ms from one
 * full run to the next (issue 17's import runs), which moved the "within 2x" ratio more than any
 * change did. 8,000 requests taken on both sides of the busy phase make it the 80th slowest, and a
 * machine whose load drifts during the run weighs on both sides alike. Each side's p99 is reported
 * too, so that drift shows.
 */
export function pooledIdle(before: LatencySample, after: LatencySample): LatencySample & { before: LatencySample; after: LatencySample } {
  return { metered: [...before.metered, ...after.metered], unmetered: [...before.unmetered, ...after.unmetered], before, after };
}

/** Waits (at most `limitMs`) until the WAL file is back under `bytes`: the writer's tail copied, so the idle side after is idle. */
export async function walSettled(dbFile: string, bytes = 4 * 1024 * 1024, limitMs = 30_000): Promise<void> {
  const until = performance.now() + limitMs;
  while (walFileBytes(dbFile) > bytes && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
}

/** The bench's result: the metered p99 busy against idle, the unmetered figures in `extra`. */
export function latencyResult(idle: LatencySample & Partial<ReturnType<typeof pooledIdle>>, busy: LatencySample, extra: Record<string, number | string>): BenchResult {
  const p99 = (v: number[]) => percentile(v, 99);
  const sides: Record<string, number> = idle.before && idle.after ? { idle_before_p99_ms: p99(idle.before.metered), idle_after_p99_ms: p99(idle.after.metered) } : {};
  return {
    subject: { median: p99(busy.metered), values: busy.metered.slice(0, 10) },
    baseline: { median: p99(idle.metered), values: idle.metered.slice(0, 10) },
    extra: {
      busy_requests: busy.metered.length,
      busy_p50_ms: percentile(busy.metered, 50),
      idle_p50_ms: percentile(idle.metered, 50),
      unmetered_busy_p99_ms: p99(busy.unmetered),
      unmetered_idle_p99_ms: p99(idle.unmetered),
      idle_requests: idle.metered.length,
      ...sides,
      ...extra,
    },
  };
}
