import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { type Bench, type BenchContext, median, percentile, sideBySide, throughput } from './lib';
import { type Answer, get, load, metered, perRequest, type Requests, type Server, startServer } from './loopback';
import { seedCorpus } from '../src/main/engine/corpus/seed';
import { createEngine, dbFileOf, type Engine } from '../src/main/engine/engine';
import { createKey } from '../src/main/engine/keys';
import { grant } from '../src/main/engine/ledger';
import { removeUpstreamConfig, setUpstreamConfig } from '../src/main/engine/upstream';

// A cached read through an upstream against the same read on a Skein without one (issue 14: "a
// cached read through B costs within 20% of a local read"). Three servers, each its own process:
// A (the upstream, a seeded small corpus), B (upstream A, cache-first, its copies fetched from A
// and fresh) and L (a copy of B's database with the upstream removed: the same rows, the same
// pages, no upstream). Every answer B gives while measured must say `x-skein-source: cache`, and A
// must receive no request from B's warm-up to the end: otherwise the bench fails.

const DAY_MS = 86_400_000;
/** Posts read by the details bench, round robin: the busiest user's newest. */
const DETAIL_POSTS = 40;
const TIMELINE = 'tweets-and-replies';

export interface Pair {
  a: Server;
  b: Server;
  local: Server;
  /** The next of four funded API keys, valid on B and L alike (L is B's copy). */
  key(): string;
  detailPaths: string[];
  timelinePath: string;
  /** Requests A received while B filled its cache: proves A's counter counts. */
  fillRequests: number;
  stop(): Promise<void>;
}

function fundedKey(engine: Engine, name: string): { key: string } {
  const created = createKey(engine, name);
  grant(engine.db, { transferId: `bench:fund:${name}`, userId: created.user.id, amount: 1_000_000_000, nowMs: engine.clock.nowMs() });
  // The largest limit: a full run sends more than the default 120 a minute, by far.
  engine.db.prepare('UPDATE api_users SET per_minute_limit = 100000 WHERE id = ?').run(created.user.id);
  return { key: created.key };
}

/** Walks a timeline page by page, restarting at its end (a page without next_cursor). */
function walker(base: string): Required<Requests> & { pages: number } {
  let cursor = '';
  const w = {
    pages: 0,
    next: () => (cursor ? `${base}?cursor=${cursor}` : base),
    answered(answer: Answer) {
      if (answer.status !== 200) return;
      cursor = (JSON.parse(answer.body) as { next_cursor: string }).next_cursor;
      if (!cursor) w.pages = 0;
      else w.pages++;
    },
  };
  return w;
}

function roundRobin(paths: string[]): () => Requests {
  let start = 0;
  return () => {
    let i = start++; // each worker starts at another post
    return { next: () => paths[i++ % paths.length]! };
  };
}

/** Every answer must be a 200 served from where the side says: B's cache, or L's corpus (no header). */
function expectSource(side: 'cached' | 'local') {
  return (answer: Answer) => {
    if (answer.status !== 200) throw new Error(`${side} read answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    const want = side === 'cached' ? 'cache' : undefined;
    if (answer.source !== want) throw new Error(`${side} read was served from '${answer.source ?? '(no header)'}', not ${want ?? 'the local corpus'}: the measurement is void.`);
  };
}

/**
 * The three servers, B's cache filled from A; a failure on the way stops what was started.
 * Exported for profiling by hand: a script can prepare the pair and run B under `--cpu-prof`
 * (SKEIN_BENCH_NODE_ARGS, loopback.ts).
 */
export async function prepare(ctx: BenchContext): Promise<Pair> {
  const started: Server[] = [];
  try {
    return await setUp(ctx, started);
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    throw err;
  }
}

async function setUp(ctx: BenchContext, started: Server[]): Promise<Pair> {
  const aDir = join(ctx.dir, 'a');
  const bDir = join(ctx.dir, 'b');
  const lDir = join(ctx.dir, 'local');
  const aEngine = createEngine({ dataDir: aDir });
  let upstreamKey: string;
  let userId: string;
  let postIds: string[];
  try {
    const t0 = Date.now();
    const tour = seedCorpus(aEngine.db, { scale: 'small', seed: 1 });
    ctx.log(`seeded A's small corpus (${tour.posts} posts) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    upstreamKey = fundedKey(aEngine, 'skein-b').key;
    const busiest = aEngine.db
      .prepare('SELECT user_id FROM posts p JOIN social_users u ON u.id = p.user_id WHERE u.protected = 0 GROUP BY user_id ORDER BY count(*) DESC LIMIT 1')
      .safeIntegers(true)
      .pluck()
      .get() as bigint;
    userId = busiest.toString();
    postIds = (aEngine.db.prepare('SELECT id FROM posts WHERE user_id = ? ORDER BY id DESC LIMIT ?').safeIntegers(true).pluck().all(busiest, DETAIL_POSTS) as bigint[]).map(String);
  } finally {
    aEngine.close();
  }
  const a = await startServer(['skein', aDir]);
  started.push(a);
  const keys: string[] = [];
  const bEngine = createEngine({ dataDir: bDir });
  try {
    // Fresh for a day: a full run takes minutes, so no copy may go stale (the default page
    // freshness is 15 minutes) and turn a cache hit into a fetch mid-measurement.
    setUpstreamConfig(bEngine.db, { url: `http://127.0.0.1:${a.port}`, profile: 'spec', mode: 'cache-first', perMinute: 100_000, freshMs: { post: DAY_MS, page: DAY_MS, user: DAY_MS } }, bEngine.clock.nowMs());
    for (let i = 0; i < 4; i++) keys.push(fundedKey(bEngine, `bench-${i}`).key);
  } finally {
    bEngine.close();
  }
  let next = 0;
  const key = () => keys[next++ % keys.length]!;
  const detailPaths = postIds.map((id) => `/social/tweets/${id}`);
  const timelinePath = `/social/user/${userId}/${TIMELINE}`;
  const bEnv = { SKEIN_UPSTREAM_KEY: upstreamKey };

  // Fill B's cache: each post's details, then every page of the timeline, all fetched from A.
  const b = await startServer(['skein', bDir], bEnv);
  started.push(b);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const aBeforeFill = await a.requestsSeen();
  const pass = async (want: string) => {
    const seen: string[] = [];
    for (const path of detailPaths) {
      const r = await get(agent, b.port, path, key());
      if (r.status !== 200) throw new Error(`B answered ${path} with ${r.status}: ${r.body.slice(0, 300)}`);
      seen.push(r.source ?? '');
    }
    const walk = walker(timelinePath);
    do {
      const r = await get(agent, b.port, walk.next(), key());
      if (r.status !== 200) throw new Error(`B answered its timeline with ${r.status}: ${r.body.slice(0, 300)}`);
      seen.push(r.source ?? '');
      walk.answered(r);
    } while (walk.pages > 0);
    const other = seen.filter((s) => s !== want);
    if (other.length) throw new Error(`B's ${want === 'upstream' ? 'fill' : 'check'} pass: ${other.length} of ${seen.length} reads were served from ${[...new Set(other)].join(', ')}, not ${want}`);
    return seen.length;
  };
  const filled = await pass('upstream');
  const fillRequests = (await a.requestsSeen()) - aBeforeFill;
  if (fillRequests < filled) throw new Error(`A counted ${fillRequests} requests while B fetched ${filled} reads from it: its counter is broken`);
  await pass('cache');
  if ((await a.requestsSeen()) !== aBeforeFill + fillRequests) throw new Error('A received requests during a pass B served from its cache');
  agent.destroy();

  // L: a page-by-page copy of B's database (SQLite's backup, consistent while B runs idle) with the
  // upstream removed. Same rows in the same pages, no upstream.
  mkdirSync(lDir, { recursive: true });
  const source = new Database(dbFileOf(bDir), { readonly: true, fileMustExist: true });
  try {
    await source.backup(dbFileOf(lDir));
  } finally {
    source.close();
  }
  const lEngine = createEngine({ dataDir: lDir });
  try {
    if (!removeUpstreamConfig(lEngine.db)) throw new Error('the copy of B had no upstream to remove');
  } finally {
    lEngine.close();
  }
  const local = await startServer(['skein', lDir]);
  started.push(local);
  ctx.log(`B filled from A with ${fillRequests} upstream requests (${detailPaths.length} posts, ${filled - detailPaths.length} timeline pages)`);
  return {
    a,
    b,
    local,
    key,
    detailPaths,
    timelinePath,
    fillRequests,
    stop: async () => {
      await Promise.all(started.map((s) => s.stop()));
    },
  };
}

interface Sizes {
  /** Requests per throughput run (16 in flight) and per latency run (one at a time). */
  total: number;
  sequential: number;
  runs: number;
  warmUp: number;
}

/**
 * One endpoint, B's cache against L: req/s with 16 in flight (paired runs, server CPU per
 * request beside it), then latency one request at a time (paired runs). A's request count is taken
 * before B's warm-up and after the last run.
 */
async function compare(ctx: BenchContext, paths: (p: Pair) => string | (() => Requests), sizes: Sizes) {
  const p = await prepare(ctx);
  try {
    const requests = paths(p);
    const aBefore = await p.a.requestsSeen();
    const concurrency = 16;
    const cached = expectSource('cached');
    const local = expectSource('local');
    // Warm-up, as bench/api: fresh processes' handlers are not yet optimised by the JIT.
    await load(p.b.port, requests, p.key(), sizes.warmUp, concurrency, cached);
    await load(p.local.port, requests, p.key(), sizes.warmUp, concurrency, local);
    const bCpu = { cpu: 0, requests: 0 };
    const lCpu = { cpu: 0, requests: 0 };
    const rps = await sideBySide(
      sizes.runs,
      () => metered(p.b, bCpu, sizes.total, () => throughput(() => load(p.b.port, requests, p.key(), sizes.total, concurrency, cached))),
      () => metered(p.local, lCpu, sizes.total, () => throughput(() => load(p.local.port, requests, p.key(), sizes.total, concurrency, local))),
    );
    const times = { cached: [] as number[], local: [] as number[] };
    const bodyBytes = { cached: 0, local: 0 };
    const sequential = (server: Server, side: 'cached' | 'local') => async () => {
      const check = side === 'cached' ? cached : local;
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const source = typeof requests === 'string' ? { next: () => requests } : requests();
      const key = p.key();
      const own: number[] = [];
      for (let i = 0; i < sizes.sequential; i++) {
        const t0 = process.hrtime.bigint();
        const answer = await get(agent, server.port, source.next(), key);
        own.push(Number(process.hrtime.bigint() - t0) / 1e6);
        check(answer);
        source.answered?.(answer);
        bodyBytes[side] += Buffer.byteLength(answer.body);
      }
      agent.destroy();
      times[side].push(...own);
      return percentile(own, 99);
    };
    const latency = await sideBySide(sizes.runs, sequential(p.b, 'cached'), sequential(p.local, 'local'));
    const aDuring = (await p.a.requestsSeen()) - aBefore;
    if (aDuring !== 0) throw new Error(`upstream A received ${aDuring} requests while B's cached reads were measured: they were not all cache hits, the figures are void`);
    const pairedRatio = median(rps.subject.values.map((v, i) => v / rps.baseline.values[i]!));
    const p50 = { cached: median(times.cached), local: median(times.local) };
    const p99 = { cached: percentile(times.cached, 99), local: percentile(times.local, 99) };
    return {
      ...rps,
      extra: {
        req_s_ratio_paired: pairedRatio,
        cached_p50_ms: p50.cached,
        local_p50_ms: p50.local,
        p50_ratio: p50.cached / p50.local,
        cached_p99_ms: p99.cached,
        local_p99_ms: p99.local,
        p99_ratio: p99.cached / p99.local,
        p99_ratio_paired: median(latency.subject.values.map((v, i) => v / latency.baseline.values[i]!)),
        cached_cpu_us_per_req: perRequest(bCpu),
        local_cpu_us_per_req: perRequest(lCpu),
        cpu_ratio: perRequest(bCpu) / perRequest(lCpu),
        cached_body_bytes: Math.round(bodyBytes.cached / times.cached.length),
        local_body_bytes: Math.round(bodyBytes.local / times.local.length),
        upstream_requests_measured: aDuring,
        upstream_requests_fill: p.fillRequests,
        requests_per_run: sizes.total,
        sequential_per_run: sizes.sequential,
        concurrency,
      },
    };
  } finally {
    await p.stop();
  }
}

// Quick mode keeps both benches near 10 s each. Details cost a fifth of a timeline page, so they get
// more warm-up: after 2,000 requests a details server still spent ~200 µs CPU per request, twice
// what it spends once the JIT has optimised its handlers (bench/api says the same).
const FULL: Sizes = { total: 10_000, sequential: 2_000, runs: 7, warmUp: 20_000 };
const QUICK_DETAILS: Sizes = { total: 2_000, sequential: 300, runs: 3, warmUp: 6_000 };
const QUICK_TIMELINE: Sizes = { total: 1_000, sequential: 200, runs: 3, warmUp: 2_000 };

const detailsBench: Bench = {
  name: 'upstream cached read: tweet details',
  unit: 'req/s',
  higherIsBetter: true,
  target: 'ratio >= 0.8, p50/p99 ratio <= 1.2',
  baselineName: 'the same reads on a Skein without upstream (a copy of B)',
  run: (ctx) => compare(ctx, (p) => roundRobin(p.detailPaths), ctx.quick ? QUICK_DETAILS : FULL),
};

const timelineBench: Bench = {
  name: 'upstream cached read: timeline page',
  unit: 'req/s',
  higherIsBetter: true,
  target: 'ratio >= 0.8, p50/p99 ratio <= 1.2',
  baselineName: 'the same pages on a Skein without upstream (a copy of B)',
  run: (ctx) => compare(ctx, (p) => () => walker(p.timelinePath), ctx.quick ? QUICK_TIMELINE : FULL),
};

export default [detailsBench, timelineBench];
