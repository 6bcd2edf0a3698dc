import { createEngine } from '../engine/engine';
import { isScale, removeSeededData, SCALE_NAMES, SCALES, seedBytesNeeded, seedCorpus, type SeedRemoval } from '../engine/corpus/seed';
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
  summary: `Write a deterministic demo corpus (${scaleList}) and print its tour of notable ids as JSON, or remove the demo data (--remove).`,
  usage: `skein seed [--scale ${SCALE_NAMES.join('|')}] [--seed N] [--data-dir DIR]\n       skein seed --remove [--data-dir DIR]`,
  async run(argv) {
    const { values, dataDir, help } = parseCommandArgs(argv, { scale: { type: 'string' }, seed: { type: 'string' }, remove: { type: 'boolean' } });
    if (help) {
      console.log(
        `${this.summary}\n\nUsage: ${this.usage}\n\nScales: ${Object.entries(SCALES).map(([k, v]) => `${k} (${v.users.toLocaleString('en-US')} users, ${v.posts.toLocaleString('en-US')} posts over ${v.days} days)`).join(', ')}.\n` +
          '--remove takes the demo data out of the corpus again (what the first start or skein seed wrote, up to the demo scale): ' +
          'records imported or fetched since stay, as do jobs, their files and the ledger. It prints what it removed as JSON.',
      );
      return 0;
    }
    if (values.remove === true) {
      if (values.scale !== undefined || values.seed !== undefined) throw new UsageError('--remove takes no --scale or --seed: it removes every demo seed the corpus holds.');
      return removeDemo(dataDir);
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

/** `skein seed --remove`: the summary on stderr, what was removed and kept as JSON on stdout. */
async function removeDemo(dataDir: string): Promise<number> {
  const engine = createEngine({ dataDir });
  try {
    const r = await removeSeededData(engine.db);
    process.stderr.write(`${removalLine(r)}\n`);
    const s = getCorpusSummary(engine.db);
    process.stderr.write(`The corpus now holds ${s.users} users, ${s.posts} posts, ${s.articles} articles, ${s.spaces} spaces.\n`);
    console.log(JSON.stringify(r, null, 2));
    return 0;
  } finally {
    engine.close();
  }
}

function removalLine(r: SeedRemoval): string {
  const { users, posts, articles, spaces } = r.removed;
  const kept = r.kept.users + r.kept.posts + r.kept.spaces;
  return (
    `Removed the demo data: ${users} users, ${posts} posts, ${articles} articles, ${spaces} spaces.` +
    (kept > 0 ? ` Kept ${kept} of its records that a newer copy (imported or fetched) replaced: ${r.kept.users} users, ${r.kept.posts} posts, ${r.kept.spaces} spaces.` : '') +
    (r.left.length > 0 ? ` Left a larger generated corpus (${r.left.map((s) => `--scale ${s.scale} --seed ${s.seed}`).join(', ')}): use a new data dir for that.` : '')
  );
}
