import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Bench } from './lib';
import { gcPauses, IDLE_SAMPLE, WARM_UP, latencyResult, latencyServers, pooledIdle, prefixed, walSettled } from './latency';
import { writeV1File } from './corpus.bench';
import { walCheckpointerWanted, walFileBytes } from './wal';
import { seedCorpus } from '../src/main/engine/corpus/seed';
import { startJobRunner } from '../src/main/engine/jobs';
import { createEngine } from '../src/main/engine/engine';
import { startWalCheckpointer } from '../src/main/engine/store/wal-checkpointer';

// The API's p99 latency while `skein import` writes 1,000,000 records (quick: 20,000) into the same
// data dir from its own process, as an analyst runs it next to the app (issue 17: within 2x of the
// idle p99). The server is the whole app in this process with its WAL checkpointer, as `skein
// serve` runs it (SKEIN_BENCH_WAL=auto: without, bench/wal.ts). One request at a time: a post's
// details, metered and unmetered in turn (bench/latency.ts says why).

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
    const servers = await latencyServers(engine);
    // The job runner too, as `skein serve` runs it: its poll's claim once waited for the importer's
    // lock on this thread, up to 1.9 s (docs/decisions.md, "The server's own background work").
    const runner = startJobRunner(engine, { mode: 'thread' });
    const path = () => `/social/tweets/${tour.ids_above_2_53.post_id_str}`;
    try {
      const n = ctx.quick ? 300 : IDLE_SAMPLE;
      await servers.sample(WARM_UP, path);
      const idleBefore = await servers.sample(n, path);
      const started = performance.now();
      let importDone = false;
      let importErr = '';
      const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'cli-process.ts'), 'import', file, '--data-dir', dataDir, '--json'], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (d: Buffer) => (importErr = (importErr + d.toString()).slice(-2000)));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
        importDone = true;
        resolve(code);
      }));
      const busy = { metered: [] as number[], unmetered: [] as number[] };
      const walBytes: number[] = [];
      const gc = gcPauses();
      while (!importDone) {
        await servers.sample(25, path, busy);
        walBytes.push(walFileBytes(engine.dbFile));
      }
      const busyGc = gc.stop();
      const code = await exited;
      // `skein import` exits 3 when some records were refused; the generated file has none.
      if (code !== 0) throw new Error(`skein import exited with ${code}: ${importErr}`);
      const seconds = (performance.now() - started) / 1000;
      await walSettled(engine.dbFile);
      const idle = pooledIdle(idleBefore, await servers.sample(n, path));
      ctx.log(`import of ${records.toLocaleString('en-US')} records (${Math.round(bytes / 1e6)} MB) ran ${seconds.toFixed(1)} s while sampling; ${busy.metered.length} requests of each kind; WAL ${wal ? 'checkpointer' : 'autocheckpoint'}`);
      return latencyResult(idle, busy, {
        records,
        import_records_s: Math.round(records / seconds),
        wal: wal ? 'checkpointer' : 'autocheckpoint',
        wal_file_max_mb: Math.round(Math.max(0, ...walBytes) / 1e6),
        ...prefixed('busy_', busyGc),
      });
    } finally {
      await runner.stop();
      await servers.close();
      await wal?.stop();
      engine.close();
    }
  },
};

export default [importLatency] satisfies Bench[];
