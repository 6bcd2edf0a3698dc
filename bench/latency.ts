import { fork } from 'node:child_process';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import type { Engine } from '../src/main/engine/engine';
import { createKey } from '../src/main/engine/keys';
import { grant } from '../src/main/engine/ledger';
import { buildHttpApp } from '../src/main/http/app';
import { type BenchResult, percentile } from './lib';
import { walFileBytes } from './wal';

// The API as the latency benches (export.bench.ts, import.bench.ts) see it while a big write runs:
// the whole app on this process's engine, and the same app without metering beside it. A metered
// read commits its charge before answering, so it also waits for the write lock whenever the other
// writer holds it; the unmetered one only reads. The difference between their p99s is the wait for
// the lock, the rest is what a read shares with the writer (CPU, disk, checkpoints).
//
// The client runs in its own process (latency-client.ts), as an analyst's script does. It used to
// be fetch() on the server's own thread, and its garbage was the tail being measured: undici keeps
// each response reachable through a WeakRef and a FinalizationRegistry until a full GC, so every
// scavenge of the server's heap copied ~2.7 MB of the client's responses. Scavenges took 4-7 ms,
// one every ~180 requests, idle or busy; the metered requests, which allocate more, met ~1% of
// them, which made the metered p99 the scavenge's length (docs/decisions.md, "API p99 during an
// import: the bench's client was the tail").

export interface LatencySample {
  metered: number[];
  unmetered: number[];
}

export interface LatencyServers {
  /** `n` requests of each kind, alternating, one at a time; milliseconds each. */
  sample(n: number, path: (i: number) => string, into?: LatencySample): Promise<LatencySample>;
  close(): Promise<void>;
}

/** What the client process is asked (one batch) and answers. */
export interface ClientRequest {
  id: number;
  ports: { metered: number; unmetered: number };
  /** Taken in turn, one per pair of requests. */
  keys: string[];
  paths: string[];
}
export interface ClientReply extends LatencySample {
  id: number;
  error?: string;
}

/**
 * The API users whose keys the client takes in turn. A user's limit is 100,000 requests a minute at
 * most, and the client sends ~1,500 metered requests a second (an import's run: 320,450 in 217 s).
 */
const READERS = 4;

export async function latencyServers(engine: Engine): Promise<LatencyServers> {
  const keys = Array.from({ length: READERS }, (_, i) => {
    const { key, user } = createKey(engine, `reader-${i + 1}`);
    grant(engine.db, { transferId: `bench:reader:${i + 1}`, userId: user.id, amount: 100_000_000, nowMs: 0 });
    engine.db.prepare('UPDATE api_users SET per_minute_limit = 100000 WHERE id = ?').run(user.id);
    return key;
  });
  const metered = await buildHttpApp(engine);
  const unmetered = await buildHttpApp(engine, { metering: false });
  await metered.listen({ port: 0, host: '127.0.0.1' });
  await unmetered.listen({ port: 0, host: '127.0.0.1' });
  const portOf = (app: typeof metered) => (app.server.address() as { port: number }).port;
  const ports = { metered: portOf(metered), unmetered: portOf(unmetered) };
  const client = fork(join(__dirname, 'latency-client.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (r: ClientReply) => void>();
  client.on('message', (r: ClientReply) => waiting.get(r.id)?.(r));
  const gone = new Promise<never>((_, reject) => client.once('exit', (code) => reject(new Error(`the latency client exited (${code})`))));
  gone.catch(() => undefined);
  let nextId = 0;
  return {
    async sample(n, path, into = { metered: [], unmetered: [] }) {
      const id = nextId++;
      const replied = new Promise<ClientReply>((resolve) => waiting.set(id, resolve));
      client.send({ id, ports, keys, paths: Array.from({ length: n }, (_, i) => path(i)) } satisfies ClientRequest);
      const r = await Promise.race([replied, gone]);
      waiting.delete(id);
      if (r.error) throw new Error(r.error);
      into.metered.push(...r.metered);
      into.unmetered.push(...r.unmetered);
      return into;
    },
    async close() {
      client.disconnect();
      await metered.close();
      await unmetered.close();
    },
  };
}

/**
 * The server process's garbage collection pauses from now until stop(): a request that meets one
 * waits for it, so they are reported beside the p99 (the tail was once the client's garbage, above).
 */
export function gcPauses(): { stop(): Record<string, number> } {
  const pausesMs: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pausesMs.push(e.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      return {
        gc_pauses: pausesMs.length,
        gc_pauses_over_2ms: pausesMs.filter((ms) => ms > 2).length,
        gc_pause_p50_ms: pausesMs.length ? percentile(pausesMs, 50) : 0,
        gc_pause_max_ms: Math.max(0, ...pausesMs),
      };
    },
  };
}

export const prefixed = (prefix: string, o: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [prefix + k, v]));

/**
 * Requests of each kind before the idle sample, unmeasured. 100 left the first idle sample slower
 * than the one after the busy phase (p99 2.05 against 1.18 ms in an export's run): code not yet
 * optimized by V8 counted as idle latency.
 */
export const WARM_UP = 2000;

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
