import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Milestone, SeedMilestones } from '../src/main/cli/seed-milestones';
import { seedCorpus, type Scale } from '../src/main/engine/corpus/seed';
import { createEngine } from '../src/main/engine/engine';

// The corpora the full-mode benches read at 10,000,000 posts (issue 17), seeded at most once per
// bench process: api.bench.ts, startup.bench.ts and corpus.bench.ts share one. SKEIN_BENCH_XL_DIR
// names a data dir already seeded with `skein seed --scale xl` (the benches add their keys and
// credits to it); without it the first bench that needs the corpus seeds it (~30-60 minutes on 2
// cores), records its rate and size at each million, and it is removed when the process exits.

export interface SeededCorpus {
  dataDir: string;
  scale: Scale;
  /** Set when seeded by this process: the rate and size at each tenth. */
  milestones?: Milestone[];
  seconds?: number;
}

const seeded = new Map<Scale, SeededCorpus>();

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Seeds `scale` into a fresh data dir under `parent`, recording its milestones. */
export function seedMeasured(parent: string, scale: Scale, log: (m: string) => void): SeededCorpus {
  const dataDir = join(parent, `data-${scale}`);
  const engine = createEngine({ dataDir });
  try {
    const started = Date.now();
    const milestones = new SeedMilestones(engine.db, started, log, cpuMs());
    seedCorpus(engine.db, { scale, seed: 1, onProgress: (posts, total) => milestones.reached(posts, Date.now(), total, cpuMs()) });
    return { dataDir, scale, milestones: milestones.reachedList, seconds: (Date.now() - started) / 1000 };
  } finally {
    engine.close();
  }
}

/** The data dir the benches read: quick runs the small corpus, full runs xl. */
export function benchCorpus(ctx: { quick: boolean; log: (m: string) => void }): SeededCorpus {
  const scale: Scale = ctx.quick ? 'small' : 'xl';
  const given = ctx.quick ? undefined : process.env.SKEIN_BENCH_XL_DIR;
  if (given) {
    if (!existsSync(join(given, 'skein.db'))) throw new Error(`SKEIN_BENCH_XL_DIR=${given} holds no skein.db: seed it with 'skein seed --scale xl --data-dir ${given}'.`);
    return { dataDir: given, scale };
  }
  let corpus = seeded.get(scale);
  if (!corpus) {
    const dir = mkdtempSync(join(tmpdir(), 'skein-bench-corpus-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    if (scale === 'xl') ctx.log('seeding the xl corpus (10,000,000 posts, ~30-60 minutes); SKEIN_BENCH_XL_DIR names a seeded one to skip this');
    corpus = seedMeasured(dir, scale, ctx.log);
    seeded.set(scale, corpus);
  }
  return corpus;
}

/** The xl corpus seeded by this process, if a bench already seeded it. */
export function seededXl(): SeededCorpus | undefined {
  return seeded.get('xl');
}
