import type { Engine } from '../src/main/engine/engine';
import { buildHttpApp } from '../src/main/http/app';
import { type BenchResult, percentile } from './lib';

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

/** The bench's result: the metered p99 busy against idle, the unmetered figures in `extra`. */
export function latencyResult(idle: LatencySample, busy: LatencySample, extra: Record<string, number | string>): BenchResult {
  const p99 = (v: number[]) => percentile(v, 99);
  return {
    subject: { median: p99(busy.metered), values: busy.metered.slice(0, 10) },
    baseline: { median: p99(idle.metered), values: idle.metered.slice(0, 10) },
    extra: {
      busy_requests: busy.metered.length,
      busy_p50_ms: percentile(busy.metered, 50),
      idle_p50_ms: percentile(idle.metered, 50),
      unmetered_busy_p99_ms: p99(busy.unmetered),
      unmetered_idle_p99_ms: p99(idle.unmetered),
      ...extra,
    },
  };
}
