import { createEngine } from '../engine/engine';
import { isScale, SCALES, seedCorpus } from '../engine/corpus/seed';
import { getCorpusSummary } from '../engine/corpus/summary';
import { type Command, intOption, parseCommandArgs, UsageError } from './command';

// `skein seed`: writes a deterministic demo corpus (issue 3) and prints its tour as JSON on stdout;
// progress goes to stderr, so `skein seed > tour.json` keeps a clean file.

export const seedCommand: Command = {
  name: 'seed',
  summary: 'Write a deterministic demo corpus (demo, small or large) and print its tour of notable ids as JSON.',
  usage: 'skein seed [--scale demo|small|large] [--seed N] [--data-dir DIR]',
  async run(argv) {
    const { values, dataDir, help } = parseCommandArgs(argv, { scale: { type: 'string' }, seed: { type: 'string' } });
    if (help) {
      console.log(`${this.summary}\n\nUsage: ${this.usage}\n\nScales: ${Object.entries(SCALES).map(([k, v]) => `${k} (${v.users} users, ${v.posts} posts over ${v.days} days)`).join(', ')}.`);
      return 0;
    }
    const scale = (values.scale as string | undefined) ?? 'demo';
    if (!isScale(scale)) throw new UsageError(`--scale must be demo, small or large, not '${scale}'.`);
    const seed = intOption(values.seed, 'seed', { max: 0xffffffff }) ?? 1;

    const engine = createEngine({ dataDir });
    try {
      const before = getCorpusSummary(engine.db).posts;
      if (before > 0) process.stderr.write(`The corpus already holds ${before} posts; seeded records are added next to them (records already there stay unchanged).\n`);
      const started = Date.now();
      let lastShown = 0;
      const tour = seedCorpus(engine.db, {
        scale,
        seed,
        onProgress(posts, total) {
          const now = Date.now();
          if (now - lastShown < 500 && posts < total) return;
          lastShown = now;
          process.stderr.write(`seed: ${posts} / ${total} posts (${Math.floor((100 * posts) / total)}%)\n`);
        },
      });
      const s = getCorpusSummary(engine.db);
      process.stderr.write(`seed: done in ${((Date.now() - started) / 1000).toFixed(1)} s: the corpus now holds ${s.users} users, ${s.posts} posts (${s.replies} replies), ${s.articles} articles, ${s.spaces} spaces.\n`);
      console.log(JSON.stringify(tour, null, 2));
      return 0;
    } finally {
      engine.close();
    }
  },
};
