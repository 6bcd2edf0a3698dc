import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../src/main/engine/engine';
import { fullCheck } from '../src/main/engine/ledger';
import { type Bench, sideBySide } from './lib';
import { writeLedgerFixture } from './ledger-fixture';
import { benchCorpus } from './xl-corpus';

// Start-up (issue 17): wall time from spawning the built `skein serve` to its ready line, on a
// data dir whose ledger holds 1M (quick) or 10M (full) request charges, against the same launch
// on an empty data dir. The baseline is the launch itself (Node, modules, keychain probe, Fastify,
// job runner): the ratio says what the ledger's size still costs, and should stay near 1 however
// many transfers there are. The old cost is in `extra`: the first start after the charges (it
// re-derives every transfer since the last checkpoint, as every start did before migration 057)
// and the full scan `skein doctor` runs.

const CLI = join(__dirname, '..', 'out', 'main', 'cli.js');

function launchMs(dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--no-demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let ready = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!ready && out.includes('Skein is running at ')) {
        ready = performance.now() - t0;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => (ready ? resolve(ready) : reject(new Error(`skein serve exited with ${code} before its ready line:\n${out}${err}`))));
  });
}

// run.ts passes its own arguments: the name says which size this run measures.
const quickRun = process.argv.includes('--quick');

function startupBench(): Bench {
  return {
    name: `start-up: ready line at ${quickRun ? '1M' : '10M'} transfers`,
    unit: 'ms',
    higherIsBetter: false,
    baselineName: 'same launch, empty data dir',
    target: 'ready < 1 s at 10M transfers (full mode)',
    async run(ctx) {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npx electron-vite build' first.`);
      const n = ctx.quick ? 1_000_000 : 10_000_000;
      const runs = ctx.quick ? 3 : 5;
      const ledgerDir = join(ctx.dir, 'ledger');
      const emptyDir = join(ctx.dir, 'empty');
      mkdirSync(ledgerDir);
      mkdirSync(emptyDir);
      createEngine({ dataDir: emptyDir }).close(); // migrated, so the baseline is a start, not a first install
      const built = performance.now();
      writeLedgerFixture(ledgerDir, n);
      const fixtureMs = performance.now() - built;
      // The first start re-derives every transfer written since the last checkpoint: the cost of
      // every start before the checkpoint existed. It then moves the checkpoint.
      const firstStartMs = await launchMs(ledgerDir);
      const raw = createEngine({ dataDir: ledgerDir, startLedger: false, ledgerCheckpointEveryMs: 0 });
      const scan0 = performance.now();
      const check = fullCheck(raw.db);
      const fullScanMs = performance.now() - scan0;
      raw.close();
      if (check.violations.length) throw new Error(`the fixture's ledger is not sound: ${check.violations[0]!.detail}`);
      await launchMs(emptyDir); // warm-up: page cache and module cache for both sides
      const result = await sideBySide(runs, () => launchMs(ledgerDir), () => launchMs(emptyDir));
      ctx.log(`${n.toLocaleString('en-US')} transfers: ready in ${result.subject.median.toFixed(0)} ms (empty dir ${result.baseline.median.toFixed(0)} ms); first start after the charges ${firstStartMs.toFixed(0)} ms; full scan (doctor) ${fullScanMs.toFixed(0)} ms`);
      return { ...result, extra: { transfers: n, first_start_ms: Math.round(firstStartMs), full_scan_ms: Math.round(fullScanMs), fixture_ms: Math.round(fixtureMs) } };
    },
  };
}

/**
 * The ready line on a data dir holding the xl corpus (10,000,000 posts; issue 17: under 1 s), or
 * the small one in quick runs, against the same launch on an empty data dir. The corpus:
 * SKEIN_BENCH_XL_DIR or seeded once per bench process (bench/xl-corpus.ts).
 */
function corpusStartupBench(): Bench {
  return {
    name: `start-up: ready line with ${quickRun ? '2,000' : '10M'} posts`,
    unit: 'ms',
    higherIsBetter: false,
    baselineName: 'same launch, empty data dir',
    target: 'ready < 1 s with 10M posts (full mode)',
    async run(ctx) {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npx electron-vite build' first.`);
      const runs = ctx.quick ? 3 : 5;
      const { dataDir: corpusDir, scale } = benchCorpus(ctx);
      const emptyDir = join(ctx.dir, 'empty');
      mkdirSync(emptyDir);
      createEngine({ dataDir: emptyDir }).close();
      const dbBytes = statSync(join(corpusDir, 'skein.db')).size;
      await launchMs(corpusDir); // warm-up: page cache and module cache for both sides
      await launchMs(emptyDir);
      const dir = corpusDir;
      const result = await sideBySide(runs, () => launchMs(dir), () => launchMs(emptyDir));
      ctx.log(`${scale} corpus (${Math.round(dbBytes / 1e6).toLocaleString('en-US')} MB): ready in ${result.subject.median.toFixed(0)} ms (empty dir ${result.baseline.median.toFixed(0)} ms)`);
      return { ...result, extra: { scale, db_mb: Math.round(dbBytes / 1e6) } };
    },
  };
}

export default [startupBench(), corpusStartupBench()];
