// `npm run bench [-- --quick] [-- name-filter]`: runs every bench/*.bench.ts, prints one table and
// writes bench/results/latest.json.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bench, BenchResult } from './lib';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filters = args.filter((a) => !a.startsWith('--'));
const benchDir = __dirname;

interface Row {
  bench: string;
  unit: string;
  subject: number;
  baseline: number | null;
  ratio: number | null;
  subjectPeakRssMb: number | null;
  baselinePeakRssMb: number | null;
  target: string;
  extra: Record<string, number | string>;
  error?: string;
}

function fmt(n: number | null | undefined, digits = 2): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '-';
  return Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits);
}

async function main(): Promise<void> {
  const files = readdirSync(benchDir).filter((f) => f.endsWith('.bench.ts')).sort();
  const rows: Row[] = [];
  const started = Date.now();
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(benchDir, file)).href)) as { default?: Bench[]; benches?: Bench[] };
    const list = mod.default ?? mod.benches ?? [];
    for (const bench of list) {
      if (filters.length && !filters.some((f) => bench.name.includes(f) || file.includes(f))) continue;
      const dir = mkdtempSync(join(tmpdir(), 'skein-bench-'));
      process.stdout.write(`${bench.name} ... `);
      const t0 = Date.now();
      try {
        const r: BenchResult = await bench.run({ quick, dir, log: (m) => process.stdout.write(`\n  ${m}`) });
        const ratio = r.baseline ? r.subject.median / r.baseline.median : null;
        rows.push({
          bench: bench.name,
          unit: bench.unit,
          subject: r.subject.median,
          baseline: r.baseline?.median ?? null,
          ratio,
          subjectPeakRssMb: r.subject.peakRssMb ?? null,
          baselinePeakRssMb: r.baseline?.peakRssMb ?? null,
          target: bench.target ?? '',
          extra: r.extra ?? {},
        });
        // Printed at once too: a long run that is stopped still leaves the numbers it measured.
        const extra = Object.entries(r.extra ?? {}).map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : v}`).join(' ');
        console.log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${bench.unit} skein=${fmt(r.subject.median)} baseline=${fmt(r.baseline?.median)} ratio=${fmt(ratio)} ${extra}`);
      } catch (err) {
        rows.push({ bench: bench.name, unit: bench.unit, subject: NaN, baseline: null, ratio: null, subjectPeakRssMb: null, baselinePeakRssMb: null, target: bench.target ?? '', extra: {}, error: String((err as Error).stack ?? err) });
        console.log(`FAILED: ${(err as Error).message}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  console.log('');
  console.table(
    rows.map((r) => ({
      bench: r.bench,
      unit: r.unit,
      skein: fmt(r.subject),
      baseline: fmt(r.baseline),
      ratio: fmt(r.ratio),
      'peak MiB': r.subjectPeakRssMb === null ? '-' : `${fmt(r.subjectPeakRssMb, 0)}${r.baselinePeakRssMb === null ? '' : ` / ${fmt(r.baselinePeakRssMb, 0)}`}`,
      target: r.target,
      extra: Object.entries(r.extra).map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : v}`).join(' '),
    })),
  );
  const out = join(benchDir, 'results');
  mkdirSync(out, { recursive: true });
  const file = join(out, 'latest.json');
  // A filtered run (`npm run bench -- api`) replaces only its own rows, so latest.json keeps the
  // other benchmarks' last figures instead of losing them.
  let kept: Row[] = [];
  if (filters.length && existsSync(file)) {
    try {
      const previous = JSON.parse(readFileSync(file, 'utf8')) as { rows?: Row[] };
      kept = (previous.rows ?? []).filter((r) => !rows.some((n) => n.bench === r.bench));
    } catch {
      kept = [];
    }
  }
  writeFileSync(
    file,
    JSON.stringify({ when: new Date().toISOString(), quick, filters, machine: { cpus: cpus().length, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version }, seconds: (Date.now() - started) / 1000, rows: [...kept, ...rows] }, null, 2),
  );
  console.log(`Results written to bench/results/latest.json (${((Date.now() - started) / 1000).toFixed(1)} s).`);
  if (rows.some((r) => r.error)) process.exitCode = 1;
}

void main();
