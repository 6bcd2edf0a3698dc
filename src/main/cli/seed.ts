import { createEngine } from '../engine/engine';
import { isScale, SCALE_NAMES, SCALES, seedBytesNeeded, seedCorpus } from '../engine/corpus/seed';
import { getCorpusSummary } from '../engine/corpus/summary';
import { freeSpaceAt, neededMbText, mbText } from '../engine/disk/space';
import { type Command, intOption, parseCommandArgs, UsageError } from './command';
import { SeedMilestones } from './seed-milestones';

// `skein seed`: writes a deterministic demo corpus (issue 3) and prints its tour as JSON on stdout;
// progress goes to stderr, so `skein seed > tour.json` keeps a clean file.

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const scaleList = `${SCALE_NAMES.slice(0, -1).join(', ')} or ${SCALE_NAMES[SCALE_NAMES.length - 1]}`;

export const seedCommand: Command = {
  name: 'seed',
  summary: `Write a deterministic demo corpus (${scaleList}) and print its tour of notable ids as JSON.`,
  usage: `skein seed [--scale ${SCALE_NAMES.join('|')}] [--seed N] [--data-dir DIR]`,
  async run(argv) {
    const { values, dataDir, help } = parseCommandArgs(argv, { scale: { type: 'string' }, seed: { type: 'string' } });
    if (help) {
      console.log(`${this.summary}\n\nUsage: ${this.usage}\n\nScales: ${Object.entries(SCALES).map(([k, v]) => `${k} (${v.users.toLocaleString('en-US')} users, ${v.posts.toLocaleString('en-US')} posts over ${v.days} days)`).join(', ')}.`);
      return 0;
    }
    const scale = (values.scale as string | undefined) ?? 'demo';
    if (!isScale(scale)) throw new UsageError(`--scale must be ${scaleList}, not '${scale}'.`);
    const seed = intOption(values.seed, 'seed', { max: 0xffffffff }) ?? 1;
    // xl writes ~8 GB: say so before an hour of work rather than at SQLITE_FULL half-way.
    const needed = seedBytesNeeded(scale);
    const free = freeSpaceAt(dataDir);
    if (free.freeBytes > 0 && free.freeBytes < needed) {
      throw new UsageError(`--scale ${scale} needs about ${neededMbText(needed)} of free disk, and ${free.mount} has ${mbText(free.freeBytes)}. Free some space or choose a smaller scale.`);
    }

    const engine = createEngine({ dataDir });
    try {
      const before = getCorpusSummary(engine.db).posts;
      if (before > 0) process.stderr.write(`The corpus already holds ${before} posts; seeded records are added next to them (records already there stay unchanged).\n`);
      const started = Date.now();
      let lastShown = 0;
      const milestones = new SeedMilestones(engine.db, started, (line) => process.stderr.write(`${line}\n`), cpuMs());
      const tour = seedCorpus(engine.db, {
        scale,
        seed,
        onProgress(posts, total) {
          const now = Date.now();
          milestones.reached(posts, now, total, cpuMs());
          if (now - lastShown < 500 && posts < total) return;
          lastShown = now;
          process.stderr.write(`seed: ${posts} / ${total} posts (${Math.floor((100 * posts) / total)}%)\n`);
        },
      });
      const s = getCorpusSummary(engine.db);
      const seconds = (Date.now() - started) / 1000;
      process.stderr.write(`seed: done in ${seconds.toFixed(1)} s (${Math.round(SCALES[scale].posts / seconds).toLocaleString('en-US')} posts/s): the corpus now holds ${s.users} users, ${s.posts} posts (${s.replies} replies), ${s.articles} articles, ${s.spaces} spaces; ${milestones.sizeText(s.posts)}.\n`);
      console.log(JSON.stringify(tour, null, 2));
      return 0;
    } finally {
      engine.close();
    }
  },
};
