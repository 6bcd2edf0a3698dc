import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { type Bench, median, percentile, sideBySide, throughput } from './lib';
import { get, load, metered, perRequest, startServer } from './loopback';
import type { Scale } from '../src/main/engine/corpus/seed';
import { benchCorpus } from './xl-corpus';
import { getTour } from '../src/main/engine/corpus/summary';
import { createEngine, dbFileOf, type Engine } from '../src/main/engine/engine';
import { openDb } from '../src/main/engine/store/db';
import { createKey } from '../src/main/engine/keys';
import { grant } from '../src/main/engine/ledger';
import { readTimeline } from '../src/main/engine/reads';

// The local API through the whole stack (issue 4). Servers run in their own processes
// (bench/api-server.ts) and this process is the client: keep-alive connections, a fixed number of
// requests in flight. Targets (issue 17): post details at least 0.75 of the requests/s of a bare
// node:http server answering a body of the same size, and timeline pages p99 under 5 ms, on the
// xl corpus (10,000,000 posts) in full runs.

interface Prepared {
  dataDir: string;
  /** A key of the next of several bench users: one user's 100,000 requests a minute (the largest
   * limit) would refuse a full run's 120,000 within its minute. One key per load. */
  key(): string;
  postId: string;
  busiestUserId: string;
  scale: Scale;
}

/** The corpus plus funded keys with the largest rate limit, closed again for the server. */
function prepare(ctx: { quick: boolean; log: (m: string) => void }): Prepared {
  // Full runs read the xl corpus (10,000,000 posts, issue 17; SKEIN_BENCH_XL_DIR: bench/xl-corpus.ts).
  const { dataDir, scale } = benchCorpus(ctx);
  const engine: Engine = createEngine({ dataDir });
  try {
    const tour = getTour(engine.db);
    if (!tour) throw new Error(`${dataDir} holds no seeded corpus (no tour)`);
    const keys = Array.from({ length: 4 }, (_, i) => {
      // A given data dir keeps its bench users from one run to the next: a new key each run, the
      // credits once.
      const created = createKey(engine, `bench-${i}`);
      if (created.user.created) grant(engine.db, { transferId: `bench:fund:${i}`, userId: created.user.id, amount: 1_000_000_000, nowMs: engine.clock.nowMs() });
      engine.db.prepare('UPDATE api_users SET per_minute_limit = 100000 WHERE id = ?').run(created.user.id);
      return created.key;
    });
    let next = 0;
    const busiest = engine.db
      .prepare('SELECT user_id FROM posts p JOIN social_users u ON u.id = p.user_id WHERE u.protected = 0 GROUP BY user_id ORDER BY count(*) DESC LIMIT 1')
      .safeIntegers(true)
      .get() as { user_id: bigint };
    return { dataDir, key: () => keys[next++ % keys.length]!, postId: tour.ids_above_2_53.post_id_str, busiestUserId: busiest.user_id.toString(), scale };
  } finally {
    engine.close();
  }
}

const detailsBench: Bench = {
  name: 'api: post details through the whole stack',
  unit: 'req/s',
  higherIsBetter: true,
  target: 'ratio >= 0.75 (xl corpus, 10M posts)',
  baselineName: 'bare node:http, fixed body of the same size',
  async run(ctx) {
    const p = prepare(ctx);
    const floatsBefore = floatsPlaced(p.dataDir);
    const skein = await startServer(['skein', p.dataDir]);
    try {
      const path = `/social/tweets/${p.postId}`;
      const sample = await get(new Agent(), skein.port, path, p.key());
      if (sample.status !== 200) throw new Error(`details answered ${sample.status}: ${sample.body}`);
      const bodyFile = join(ctx.dir, 'body.json');
      writeFileSync(bodyFile, sample.body);
      const bare = await startServer(['bare', bodyFile]);
      try {
        const total = ctx.quick ? 1_000 : 20_000;
        const concurrency = 16;
        // Warm-up: a long-running server is compiled by the JIT and has its pages cached; a few
        // hundred requests left Skein's handlers half-optimised and understated it by a third.
        const warmUp = ctx.quick ? 5_000 : 20_000;
        await load(skein.port, path, p.key(), warmUp, concurrency);
        await load(bare.port, path, p.key(), warmUp, concurrency);
        // Server CPU per request besides req/s: on a busy machine req/s swings with the neighbours,
        // CPU time per request much less.
        const skeinCpu = { cpu: 0, requests: 0 };
        const bareCpu = { cpu: 0, requests: 0 };
        const r = await sideBySide(
          ctx.quick ? 2 : 5,
          () => metered(skein, skeinCpu, total, () => throughput(() => load(skein.port, path, p.key(), total, concurrency))),
          () => metered(bare, bareCpu, total, () => throughput(() => load(bare.port, path, p.key(), total, concurrency))),
        );
        // For attribution only (full runs): the same stack without metering (limiter + one ledger
        // write per request). Quick mode skips it to stay within its minute.
        const unmeteredCpu = { cpu: 0, requests: 0 };
        let unmeteredRps = NaN;
        if (!ctx.quick) {
          const unmetered = await startServer(['skein-unmetered', p.dataDir]);
          try {
            await load(unmetered.port, path, p.key(), warmUp, concurrency);
            unmeteredRps = await metered(unmetered, unmeteredCpu, total, () => throughput(() => load(unmetered.port, path, p.key(), total, concurrency)));
          } finally {
            await unmetered.stop();
          }
        }
        return {
          ...r,
          extra: {
            skein_cpu_us_per_req: perRequest(skeinCpu),
            bare_cpu_us_per_req: perRequest(bareCpu),
            cpu_ratio: perRequest(bareCpu) / perRequest(skeinCpu),
            unmetered_cpu_us_per_req: perRequest(unmeteredCpu),
            unmetered_req_s: unmeteredRps,
            body_bytes: Buffer.byteLength(sample.body),
            requests_per_run: total,
            concurrency,
            scale: p.scale,
            // Nothing else writes here: a float placed means a charge waited on the server's own
            // checkpointer, and every request after it drew on the float (~1.9x the CPU, issue 17).
            floats_placed: floatsPlaced(p.dataDir) - floatsBefore,
          },
        };
      } finally {
        await bare.stop();
      }
    } finally {
      await skein.stop();
    }
  },
};

/**
 * Metering floats ever placed in the data dir's ledger (metering/floats.ts). A read-only
 * connection, not an engine: asked while the server runs, it must not start anything beside it.
 */
function floatsPlaced(dataDir: string): number {
  const db = openDb(dbFileOf(dataDir), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM ledger_holds WHERE float_owner IS NOT NULL').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const timelineBench: Bench = {
  name: 'api: timeline page latency (p99)',
  unit: 'ms',
  higherIsBetter: false,
  target: 'p99 < 5 ms (xl corpus, 10M posts)',
  baselineName: 'readTimeline in-process (no HTTP)',
  async run(ctx) {
    const p = prepare(ctx);
    const skein = await startServer(['skein', p.dataDir]);
    const engine = createEngine({ dataDir: p.dataDir });
    try {
      const pages = ctx.quick ? 150 : 3_000;
      const all: number[] = [];
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const base = `/social/user/${p.busiestUserId}/tweets-and-replies`;
      // Walks the busiest user's timeline page by page (restarting at the end), one request at a time.
      const overHttp = async () => {
        const times: number[] = [];
        const key = p.key();
        let cursor = '';
        for (let i = 0; i < pages; i++) {
          const t0 = process.hrtime.bigint();
          const res = await get(agent, skein.port, cursor ? `${base}?cursor=${cursor}` : base, key);
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (res.status !== 200) throw new Error(`timeline answered ${res.status}: ${res.body}`);
          cursor = (JSON.parse(res.body) as { next_cursor: string }).next_cursor;
        }
        all.push(...times);
        return percentile(times, 99);
      };
      const inProcess = () => {
        const times: number[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < pages; i++) {
          const t0 = process.hrtime.bigint();
          const page = readTimeline(engine, 'tweets-and-replies', p.busiestUserId, cursor).value;
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
          cursor = page.next_cursor || undefined;
        }
        return percentile(times, 99);
      };
      await overHttp(); // warm-up
      all.length = 0;
      const r = await sideBySide(3, overHttp, inProcess);
      agent.destroy();
      return { ...r, extra: { p50_ms: median(all), p99_ms: percentile(all, 99), max_ms: Math.max(...all), pages_per_run: pages, scale: p.scale } };
    } finally {
      engine.close();
      await skein.stop();
    }
  },
};

export default [detailsBench, timelineBench];
