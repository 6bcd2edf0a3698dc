import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Bench, percentile } from './lib';
import { writeV1File } from './corpus.bench';
import { walCheckpointerWanted, walFileBytes } from './wal';
import { seedCorpus } from '../src/main/engine/corpus/seed';
import { createEngine } from '../src/main/engine/engine';
import { createKey } from '../src/main/engine/keys';
import { grant } from '../src/main/engine/ledger';
import { startWalCheckpointer } from '../src/main/engine/store/wal-checkpointer';
import { buildHttpApp } from '../src/main/http/app';

// The API's p99 latency while `skein import` writes 1,000,000 records (quick: 20,000) into the same
// data dir from its own process, as an analyst runs it next to the app (issue 17: within 2x of the
// idle p99). The server is the whole app in this process with its WAL checkpointer, as `skein
// serve` runs it (SKEIN_BENCH_WAL=auto: without, bench/wal.ts). One request at a time: a post's
// details, metered.

const importLatency: Bench = {
  name: 'API p99 during an import',
  unit: 'ms (p99)',
  higherIsBetter: false,
  target: 'within 2x of the idle p99',
  baselineName: 'same requests, no import running',
  async run(ctx) {
    const records = ctx.quick ? 20_000 : 1_000_000;
    // Copies of 100,000 distinct lines with shifted ids (writeV1File): a million lines without a
    // million strings in memory.
    const lines = Math.min(records, 100_000);
    const file = join(ctx.dir, 'import.jsonl');
    const bytes = await writeV1File(file, lines, Math.ceil(records / lines));
    const dataDir = join(ctx.dir, 'data');
    const engine = createEngine({ dataDir });
    const tour = seedCorpus(engine.db, { scale: 'small', seed: 1 });
    const wal = walCheckpointerWanted() ? startWalCheckpointer(engine) : null;
    const app = await buildHttpApp(engine);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const { key, user } = createKey(engine, 'reader');
    grant(engine.db, { transferId: 'bench:reader', userId: user.id, amount: 100_000_000, nowMs: 0 });
    engine.db.prepare('UPDATE api_users SET per_minute_limit = 100000 WHERE id = ?').run(user.id);
    const path = `/social/tweets/${tour.ids_above_2_53.post_id_str}`;
    const sample = async (n: number): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } });
        await res.text();
        if (res.status !== 200) throw new Error(`details answered ${res.status}`);
        out.push(performance.now() - t0);
      }
      return out;
    };
    try {
      const n = ctx.quick ? 300 : 2000;
      await sample(200); // warm-up
      const idle = await sample(n);
      const started = performance.now();
      let importDone = false;
      let importErr = '';
      const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'cli-process.ts'), 'import', file, '--data-dir', dataDir, '--json'], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (d: Buffer) => (importErr = (importErr + d.toString()).slice(-2000)));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
        importDone = true;
        resolve(code);
      }));
      const busy: number[] = [];
      const walBytes: number[] = [];
      while (!importDone) {
        busy.push(...(await sample(50)));
        walBytes.push(walFileBytes(engine.dbFile));
      }
      const code = await exited;
      // `skein import` exits 3 when some records were refused; the generated file has none.
      if (code !== 0) throw new Error(`skein import exited with ${code}: ${importErr}`);
      const seconds = (performance.now() - started) / 1000;
      ctx.log(`import of ${records.toLocaleString('en-US')} records (${Math.round(bytes / 1e6)} MB) ran ${seconds.toFixed(1)} s while sampling; ${busy.length} requests; WAL ${wal ? 'checkpointer' : 'autocheckpoint'}`);
      return {
        subject: { median: percentile(busy, 99), values: busy.slice(0, 10) },
        baseline: { median: percentile(idle, 99), values: idle.slice(0, 10) },
        extra: {
          busy_requests: busy.length,
          busy_p50_ms: percentile(busy, 50),
          idle_p50_ms: percentile(idle, 50),
          records,
          import_records_s: Math.round(records / seconds),
          wal: wal ? 'checkpointer' : 'autocheckpoint',
          wal_file_max_mb: Math.round(Math.max(0, ...walBytes) / 1e6),
        },
      };
    } finally {
      await app.close();
      await wal?.stop();
      engine.close();
    }
  },
};

export default [importLatency] satisfies Bench[];
