import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execFile } from 'node:child_process';
import { type Bench, sideBySide, throughput, withPeakRss } from './lib';
import { generateCorpus, seedCorpus, type SeedSink, type Scale } from '../src/main/engine/corpus/seed';
import { finishCounters } from '../src/main/engine/corpus/seed/write';
import { formatV1, parseJsonExact, parseTimestampUs } from '../src/main/engine/corpus/write';
import { importPaths } from '../src/main/engine/corpus/importers';
import { openDb, type Db } from '../src/main/engine/store/db';
import type { Milestone } from '../src/main/cli/seed-milestones';
import { seededXl, seedMeasured } from './xl-corpus';
import { migrate } from '../src/main/engine/store/migrate';

// Corpus benchmarks (issue 3): seeding and importing through Skein's write path, each next to a
// bare better-sqlite3 insert of the same rows into the same schema (same indexes, FTS triggers),
// in transactions of the same size. Target: Skein at least half the bare rate; flat memory.

function freshDb(dir: string, name: string): Db {
  const db = openDb(join(dir, `${name}.db`));
  migrate(db);
  return db;
}

type Obj = Record<string, unknown>;
const big = (v: unknown) => (v === null || v === undefined ? null : BigInt(v as string));
const b = (v: unknown) => (v ? 1 : 0);

/** The baseline: the same objects as plain positional INSERTs, no checks, no upsert logic. */
function bareSink(db: Db, batch = 2_000, usersRepeat = false): SeedSink & { end(): void; posts: number } {
  const user = db.prepare(`INSERT ${usersRepeat ? 'OR IGNORE ' : ''}INTO social_users (id, screen_name, screen_name_lower, name, location, url, description, protected, verified,
    followers_count, friends_count, listed_count, favourites_count, statuses_count, created_at_us, profile_banner_url, profile_image_url_https, can_dm, retrieved_at_ms)
    VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const post = db.prepare(`INSERT INTO posts (id, user_id, created_at_us, full_text, source, truncated, in_reply_to_status_id, in_reply_to_user_id,
    in_reply_to_screen_name, quoted_status_id, is_quote_status, quote_count, reply_count, retweet_count, favorite_count, views_count, bookmark_count,
    lang, entities_json, conversation_id, reply_depth, has_links, retrieved_at_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const parent = db.prepare('SELECT conversation_id, reply_depth FROM posts WHERE id = ?').safeIntegers(true);
  const tag = db.prepare('INSERT OR IGNORE INTO post_hashtags (post_id, tag) VALUES (?, ?)');
  const sym = db.prepare('INSERT OR IGNORE INTO post_symbols (post_id, symbol) VALUES (?, ?)');
  const men = db.prepare('INSERT OR IGNORE INTO post_mentions (post_id, screen_name) VALUES (?, ?)');
  const url = db.prepare('INSERT OR IGNORE INTO post_urls (post_id, url) VALUES (?, ?)');
  const article = db.prepare(`INSERT INTO articles (post_id, id, title, preview_text, cover_url, published_at_us, content_state_json, media_entities_json, retrieved_at_ms) VALUES (?,?,?,?,?,?,?,?,?)`);
  const space = db.prepare(`INSERT INTO spaces (id, state, title, media_key, created_at_ms, ended_at_ms, creator_id, creator_json, retrieved_at_ms) VALUES (?,?,?,?,?,?,?,?,?)`);
  let n = 0;
  const step = () => {
    if (++n % batch === 0) {
      db.exec('COMMIT');
      db.exec('BEGIN');
    }
  };
  db.exec('BEGIN');
  const writePost = (t: Obj) => {
    const id = BigInt(t.id_str as string);
    const u = t.user as Obj;
    if (usersRepeat) sink.user(u);
    const reply = big(t.in_reply_to_status_id_str);
    const p = reply === null ? undefined : (parent.get(reply) as { conversation_id: bigint; reply_depth: bigint } | undefined);
    const e = t.entities as Record<string, Obj[]>;
    post.run(id, BigInt(u.id_str as string), parseTimestampUs(t.tweet_created_at as string), t.full_text, t.source, b(t.truncated), reply,
      big(t.in_reply_to_user_id_str), t.in_reply_to_screen_name, big(t.quoted_status_id_str), b(t.is_quote_status), t.quote_count, t.reply_count,
      t.retweet_count, t.favorite_count, t.views_count, t.bookmark_count, t.lang, JSON.stringify(e),
      p ? p.conversation_id : (reply ?? id), p ? p.reply_depth + 1n : reply === null ? 0 : 1, e.urls!.length ? 1 : 0, 1);
    for (const h of e.hashtags!) tag.run(id, (h.text as string).toLowerCase());
    for (const s of e.symbols!) sym.run(id, (s.text as string).toLowerCase());
    for (const m of e.user_mentions!) men.run(id, (m.screen_name as string).toLowerCase());
    for (const x of e.urls!) url.run(id, (x.expanded_url as string).toLowerCase());
    sink.posts++;
    step();
  };
  const sink = {
    posts: 0,
    user(u: Obj) {
      user.run(BigInt(u.id_str as string), u.screen_name, (u.screen_name as string).toLowerCase(), u.name, u.location, u.url, u.description,
        b(u.protected), b(u.verified), u.followers_count, u.friends_count, u.listed_count, u.favourites_count, u.statuses_count,
        parseTimestampUs(u.created_at as string), u.profile_banner_url, u.profile_image_url_https, b(u.can_dm), 1);
      step();
    },
    tweet: writePost,
    article(d: Obj) {
      writePost(d);
      const a = d.article as Obj;
      article.run(BigInt(d.id_str as string), BigInt(a.id_str as string), a.title, a.preview_text, a.cover_url, parseTimestampUs(a.published_at as string),
        JSON.stringify(a.content_state), JSON.stringify(a.media_entities), 1);
    },
    space(s: Obj) {
      space.run(s.id, s.state, s.title, s.media_key, s.created_at, Number(s.ended_at), (s.creator as Obj).id, JSON.stringify(s.creator), 1);
      step();
    },
    end() {
      finishCounters(db);
      db.exec('COMMIT');
    },
  };
  return sink;
}

const seedBench: Bench = {
  name: 'corpus: seed generation (large corpus)',
  unit: 'posts/s',
  higherIsBetter: true,
  target: 'ratio >= 0.5',
  baselineName: 'bare better-sqlite3 INSERTs of the same rows',
  async run(ctx) {
    const scale: Scale = ctx.quick ? 'small' : 'large';
    const runs = ctx.quick ? 3 : 1;
    let peakSubject = 0;
    let peakBaseline = 0;
    const r = await sideBySide(
      runs,
      async (i) => {
        const db = freshDb(ctx.dir, `seed-${i}`);
        const { value, peakRssMb } = await withPeakRss(() => throughput(() => {
          const tour = seedCorpus(db, { scale, seed: 1 });
          return tour.posts;
        }));
        peakSubject = Math.max(peakSubject, peakRssMb);
        db.close();
        return value;
      },
      async (i) => {
        const db = freshDb(ctx.dir, `bare-${i}`);
        const cache = db.pragma('cache_size', { simple: true });
        db.pragma('cache_size = -65536');
        const { value, peakRssMb } = await withPeakRss(() => throughput(() => {
          const sink = bareSink(db);
          generateCorpus({ scale, seed: 1 }, sink);
          sink.end();
          return sink.posts;
        }));
        db.pragma(`cache_size = ${cache}`);
        peakBaseline = Math.max(peakBaseline, peakRssMb);
        db.close();
        return value;
      },
    );
    return {
      subject: { ...r.subject, peakRssMb: peakSubject },
      baseline: { ...r.baseline, peakRssMb: peakBaseline },
      extra: { scale, runs },
    };
  },
};


// --- import of Twitter v1.1 JSON Lines -------------------------------------------------------

/** Writes `lines` v1.1 statuses (ids as bare 19-digit numbers, as v1.1 files have them) to `file`. */
export function writeV1File(file: string, lines: number, copies = 1): Promise<number> {
  const out = createWriteStream(file);
  const statuses: string[] = [];
  class Stop extends Error {}
  try {
    generateCorpus({ scale: lines > 2_000 ? 'large' : 'small', seed: 3 }, {
      user() {},
      article() {},
      space() {},
      tweet(t) {
        if (statuses.length >= lines) throw new Stop();
        const u = t.user as Obj;
        const status = {
          created_at: formatV1(parseTimestampUs(t.tweet_created_at as string)),
          id: t.id_str, id_str: t.id_str, text: t.full_text, source: t.source, truncated: false,
          in_reply_to_status_id: t.in_reply_to_status_id_str, in_reply_to_status_id_str: t.in_reply_to_status_id_str,
          in_reply_to_user_id: t.in_reply_to_user_id_str, in_reply_to_user_id_str: t.in_reply_to_user_id_str,
          in_reply_to_screen_name: t.in_reply_to_screen_name,
          user: { ...u, id: u.id_str, created_at: formatV1(parseTimestampUs(u.created_at as string)), time_zone: null, geo_enabled: false },
          geo: null, coordinates: null, place: null, is_quote_status: t.is_quote_status,
          quoted_status_id: t.quoted_status_id_str, quoted_status_id_str: t.quoted_status_id_str,
          quote_count: t.quote_count, reply_count: t.reply_count, retweet_count: t.retweet_count, favorite_count: t.favorite_count,
          entities: t.entities, favorited: false, retweeted: false, filter_level: 'low', lang: t.lang,
        };
        statuses.push(JSON.stringify(status).replace(/"(id|in_reply_to_status_id|in_reply_to_user_id|quoted_status_id)":"(\d+)"/g, '"$1":$2'));
      },
    });
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  // Copies get other ids (a different worker field of the snowflake), so a big file is all new rows.
  return new Promise((done, fail) => {
    let bytes = 0;
    let copy = 0;
    const writeCopy = (): void => {
      while (copy < copies) {
        const shift = BigInt(copy) << 12n;
        const text = copy === 0 ? statuses.join('\n') + '\n' : statuses.map((l) => l.replace(/\b(\d{18,19})\b/g, (d) => (BigInt(d) + shift).toString())).join('\n') + '\n';
        bytes += Buffer.byteLength(text);
        copy++;
        if (!out.write(text)) return void out.once('drain', writeCopy);
      }
      out.end(() => done(bytes));
    };
    out.on('error', fail);
    writeCopy();
  });
}

/** Baseline: readline + exact JSON parse + the same rows as plain INSERTs (users OR IGNORE). */
async function bareImport(db: Db, file: string): Promise<number> {
  const cache = db.pragma('cache_size', { simple: true });
  db.pragma('cache_size = -65536');
  const sink = bareSink(db, 1_000, true);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const s = parseJsonExact(line) as Obj;
    sink.tweet({ ...s, tweet_created_at: s.created_at, full_text: s.full_text ?? s.text, views_count: 0, bookmark_count: 0 });
  }
  sink.end();
  db.pragma(`cache_size = ${cache}`);
  return sink.posts;
}

async function skeinImport(db: Db, file: string): Promise<number> {
  const cache = db.pragma('cache_size', { simple: true });
  db.pragma('cache_size = -65536');
  const report = await importPaths(db, [file]);
  db.pragma(`cache_size = ${cache}`);
  return report.added + report.updated + report.skipped;
}

const importBench: Bench = {
  name: 'corpus: import v1.1 JSON Lines',
  unit: 'records/s',
  higherIsBetter: true,
  target: 'ratio >= 0.5',
  baselineName: 'readline + bare better-sqlite3 INSERTs of the same rows',
  async run(ctx) {
    const lines = ctx.quick ? 2_000 : 100_000;
    const file = join(ctx.dir, 'v1.jsonl');
    const bytes = await writeV1File(file, lines);
    const runs = 3;
    const r = await sideBySide(
      runs,
      (i) => throughput(() => skeinImport(freshDb(ctx.dir, `imp-${i}`), file)),
      (i) => throughput(() => bareImport(freshDb(ctx.dir, `bare-imp-${i}`), file)),
    );
    return { ...r, extra: { lines, file_mb: bytes / 1024 / 1024 } };
  },
};

const memoryBench: Bench = {
  name: 'corpus: import peak memory, big file vs quarter file',
  unit: 'MiB peak RSS',
  higherIsBetter: false,
  target: 'flat: big file no higher than the quarter file',
  baselineName: 'the same import of a file a quarter the size',
  async run(ctx) {
    // Full run: 50,000 distinct statuses x 16 copies (~1.5 KB each) = about 1.2 GB; quick: ~23 MB.
    const lines = ctx.quick ? 1_000 : 50_000;
    const copies = ctx.quick ? 8 : 16;
    const big = join(ctx.dir, 'big.jsonl');
    const small = join(ctx.dir, 'quarter.jsonl');
    const bigBytes = await writeV1File(big, lines, copies);
    const smallBytes = await writeV1File(small, lines, copies / 4);
    // Each import runs in a fresh process, so neither is charged for the other's heap or for the
    // garbage left by writing the test files.
    const s = await importInChild(small, join(ctx.dir, 'mem-small.db'));
    const b = await importInChild(big, join(ctx.dir, 'mem-big.db'));
    return {
      subject: { median: b.peakRssMb, values: [b.peakRssMb], peakRssMb: b.peakRssMb },
      baseline: { median: s.peakRssMb, values: [s.peakRssMb], peakRssMb: s.peakRssMb },
      extra: { big_file_mb: bigBytes / 1024 / 1024, quarter_file_mb: smallBytes / 1024 / 1024, big_records: b.records, quarter_records: s.records },
    };
  },
};

/** `skeinImport` of `file` into a fresh database in a child process: its peak RSS and records. */
function importInChild(file: string, dbFile: string): Promise<{ peakRssMb: number; records: number }> {
  const root = join(__dirname, '..');
  const code = `
    const load = async (p, name) => { const m = await import(p); return m[name] ?? m.default[name]; };
    const withPeakRss = await load(${JSON.stringify(join(root, 'bench', 'lib.ts'))}, 'withPeakRss');
    const openDb = await load(${JSON.stringify(join(root, 'src/main/engine/store/db.ts'))}, 'openDb');
    const migrate = await load(${JSON.stringify(join(root, 'src/main/engine/store/migrate.ts'))}, 'migrate');
    const importPaths = await load(${JSON.stringify(join(root, 'src/main/engine/corpus/importers/index.ts'))}, 'importPaths');
    const db = openDb(${JSON.stringify(dbFile)});
    migrate(db);
    db.pragma('cache_size = -65536');
    const r = await withPeakRss(() => importPaths(db, [${JSON.stringify(file)}]));
    process.stdout.write(JSON.stringify({ peakRssMb: r.peakRssMb, records: r.value.added + r.value.updated + r.value.skipped }));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as { peakRssMb: number; records: number });
    });
  });
}

// --- the corpus at 10,000,000 posts (issue 17) ------------------------------------------------

// run.ts passes its own arguments: the name says which size this run measures.
const quickRun = process.argv.includes('--quick');

/**
 * `skein seed --scale xl` (quick: demo, 20,000 posts) measured at each tenth: the rate over the
 * last tenth against the rate over the first (flat is the goal), and the database's size per post.
 * Rates are per second of the seeding process's CPU time, which other work on a shared machine
 * changes far less than wall time; wall rates are in `extra`. A full run seeds xl once for every
 * bench that reads it (bench/xl-corpus.ts), even when SKEIN_BENCH_XL_DIR gives the others one.
 */
const scaleBench: Bench = {
  name: `corpus: seed rate and size per post up to ${quickRun ? '20,000' : '10M'} posts`,
  unit: 'posts per CPU second',
  higherIsBetter: true,
  target: 'flat: the last tenth within 20% of the first; bytes per post flat',
  baselineName: 'the first tenth',
  async run(ctx) {
    const corpus = ctx.quick ? seedMeasured(ctx.dir, 'demo', ctx.log) : (seededXl() ?? seedMeasured(ctx.dir, 'xl', ctx.log));
    const m = corpus.milestones!;
    const first = m[0]!;
    const last = m[m.length - 1]!;
    const step = (x: Milestone) => (x.posts >= 1_000_000 ? `${Math.round(x.posts / 1e6)}M` : `${Math.round(x.posts / 1e3)}k`);
    return {
      subject: { median: last.postsPerCpuS, values: m.map((x) => Math.round(x.postsPerCpuS)) },
      baseline: { median: first.postsPerCpuS, values: [first.postsPerCpuS] },
      extra: {
        posts: last.posts,
        seconds: Math.round(corpus.seconds!),
        posts_per_s_wall: m.map((x) => `${step(x)}:${Math.round(x.postsPerS)}`).join(','),
        bytes_per_post: m.map((x) => `${step(x)}:${Math.round(x.bytes / x.posts)}`).join(','),
        db_mb: Math.round(last.bytes / 1e6),
      },
    };
  },
};

export default [seedBench, importBench, memoryBench, scaleBench] satisfies Bench[];
