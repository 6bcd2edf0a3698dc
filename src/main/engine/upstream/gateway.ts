import type { Engine } from '../engine';
import { fail, SkeinError } from '../errors';
import { retryHeaders } from '../limits';
import { CONFIG_TTL_MS, configCache } from './config-cache';
import { getUpstreamConfig, type FreshKind, type UpstreamConfig, type UpstreamMode } from './config';
import { upstreamClient, type UpstreamClient, type UpstreamClientOptions } from './client';
import { upstreamPaths, type UpstreamPaths } from './paths';
import { UpstreamError } from './errors';
import type { Sleep } from './limiter';
import { billedItems, bookSpend, type Requester } from './spend';
import { whenWriteFree } from '../store/when-write-free';

// The gateway's common part: which mode applies now, whether a stored copy is fresh, and one
// billed fetch (limiter, budget, request, store and book in one transaction). The reads that use
// it are in fetch-reads.ts; jobs use fetchBilled through their own walk (jobs/upstream/walk.ts).

/** How a read was served, sent as the `x-skein-source` header (docs/api.md). */
export type Served = 'local' | 'cache' | 'upstream' | 'stale';

export type GatewayEngine = Pick<Engine, 'db' | 'clock' | 'ids' | 'upstreamKeys'>;

export function currentConfig(engine: Pick<Engine, 'db' | 'clock'>): UpstreamConfig | null {
  const now = engine.clock.nowMs();
  const hit = configCache.get(engine.db);
  if (hit && now - hit.atMs < CONFIG_TTL_MS && now >= hit.atMs) return hit.config;
  const config = getUpstreamConfig(engine.db);
  configCache.set(engine.db, { config, atMs: now });
  return config;
}

/**
 * The configured profile's paths, from the cached config: a cache hit builds no client (which
 * reads the config again and makes a limiter, ~45 µs, bench/upstream).
 */
export function pathsOf(engine: Pick<Engine, 'db' | 'clock'>): UpstreamPaths {
  const config = currentConfig(engine);
  if (!config) throw new UpstreamError('not_configured', "No upstream is set: run 'skein upstream set --url URL --profile socialdata|spec'.");
  return upstreamPaths(config.profile);
}

/** The mode in force: 'offline' when no upstream is set. */
export function modeOf(engine: Pick<Engine, 'db' | 'clock'>): UpstreamMode {
  return currentConfig(engine)?.mode ?? 'offline';
}

/** Whether a copy retrieved at `retrievedAtMs` may be served without asking the upstream. */
export function isFresh(engine: Pick<Engine, 'db' | 'clock'>, kind: FreshKind, retrievedAtMs: number): boolean {
  const config = currentConfig(engine);
  if (!config || config.mode === 'offline') return true;
  if (config.mode === 'refresh') return false;
  return engine.clock.nowMs() - retrievedAtMs < config.freshMs[kind];
}

/**
 * Tests pass a sleep that advances a manual clock, and a shorter timeout than 30 s; everything else
 * waits for real. Kept per database connection, so a job walking on the engine's own connection
 * (the inline runner) gets them too.
 */
const testOptions = new WeakMap<object, { sleep?: Sleep; timeoutMs?: number }>();
export function setUpstreamSleep(engine: Pick<Engine, 'db'>, sleep: Sleep): void {
  testOptions.set(engine.db, { ...testOptions.get(engine.db), sleep });
}
export function setUpstreamTimeout(engine: Pick<Engine, 'db'>, timeoutMs: number): void {
  testOptions.set(engine.db, { ...testOptions.get(engine.db), timeoutMs });
}

/** A read's client (its rate-limit waits bounded: READ_MAX_RATE_WAIT_MS); a job's walk passes `{ maxRateWaitMs: Infinity }`. */
export function clientOf(engine: GatewayEngine, options: Pick<UpstreamClientOptions, 'maxRateWaitMs'> = {}): UpstreamClient {
  return upstreamClient(engine, { keySource: engine.upstreamKeys, ...testOptions.get(engine.db), ...options });
}

export interface Stored<T> {
  /** Items the answer held (what the upstream bills, at least one per request: billedItems). */
  items: number;
  result: T;
}

/**
 * One billed upstream GET: admitted by the shared limiter with `maxItems` held against the budget,
 * then `store` writes what came back and the spend line is booked, in one transaction, so an answer
 * is never stored unpaid-for nor booked unstored. `spendId` is the caller's (a job's page) or a fresh one.
 */
export async function fetchBilled<T>(
  engine: GatewayEngine,
  who: Requester,
  path: string,
  maxItems: number,
  store: (body: unknown, nowMs: number) => Stored<T>,
  spendId?: string,
  client: UpstreamClient = clientOf(engine),
  idempotencyKey?: string,
): Promise<T> {
  const answer = await client.request(path, maxItems, idempotencyKey);
  const { db } = engine;
  const now = engine.clock.nowMs();
  const id = spendId ?? `req:${now}:${engine.ids.randomHex(8)}`;
  const line = (items: number, suffix = '') => ({ id: `${id}${suffix}`, atMs: now, items: billedItems(items), request: path, who });
  try {
    // Once the write lock is free, waited for off the event loop (store/when-write-free.ts): during
    // `skein import` in another process (~270 ms a transaction) a wait inside SQLite held every
    // other request of this process with it. IMMEDIATE: the store reads before it writes, and a
    // deferred transaction fails at once if another connection wrote in between.
    return await whenWriteFree(db, () =>
      db
        .transaction(() => {
          const stored = store(answer.body, now);
          bookSpend(db, line(stored.items));
          return stored.result;
        })
        .immediate(),
    );
  } catch (err) {
    // The upstream billed the answer even if it cannot be stored: book that on its own (under its
    // own id: a job's page id stays free for the run that does store the page).
    await whenWriteFree(db, () => bookSpend(db, line(0, ':unstored')));
    if (err instanceof SkeinError || err instanceof UpstreamError) throw err;
    throw new UpstreamError('bad_response', `The upstream's answer to ${path.split('?')[0]} could not be stored: ${(err as Error).message}`);
  } finally {
    await client.limiter.settle(answer.admission);
  }
}

/**
 * Identical reads at the same moment share one upstream request: without it two clients asking for
 * the same page together both missed the cache, and both were fetched and paid for. Per database
 * connection (one process's engine); `joined` tells the caller its answer cost nothing.
 */
const inFlight = new WeakMap<object, Map<string, Promise<unknown>>>();
export function sharedFetch<T>(engine: Pick<GatewayEngine, 'db'>, path: string, run: () => Promise<T>): { promise: Promise<T>; joined: boolean } {
  let paths = inFlight.get(engine.db);
  if (!paths) inFlight.set(engine.db, (paths = new Map()));
  const running = paths.get(path) as Promise<T> | undefined;
  if (running) return { promise: running, joined: true };
  const promise = run().finally(() => paths.delete(path));
  paths.set(path, promise);
  return { promise, joined: false };
}

/**
 * An upstream failure as the error a client of ours gets. The spec's 500 is "the data could not be
 * obtained; retry later" (section 7): that is every failure of the upstream itself. Its answers
 * about the request (404, 403, 422) keep their meaning.
 */
export function asClientError(err: unknown): unknown {
  if (!(err instanceof UpstreamError)) return err;
  // 429 with the wait: the SDKs scripts use sleep retry-after-ms and send the read again.
  if (err.kind === 'rate_limited') return fail.rateLimited(`Fetching data from the upstream failed: ${err.message}`, retryHeaders(err.retryAfterMs ?? 1_000));
  if (err.kind === 'rejected') {
    if (err.status === 404) return fail.notFound(err.message);
    if (err.status === 403) return fail.forbidden(err.message);
    if (err.status === 400 || err.status === 422) return new SkeinError('invalid', err.message);
  }
  return new SkeinError('upstream', `Fetching data from the upstream failed: ${err.message}`);
}
