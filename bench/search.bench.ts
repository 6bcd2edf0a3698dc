import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bench, sideBySide, throughput, withPeakRss } from './lib';
import { seedCorpus, type Scale } from '../src/main/engine/corpus/seed';
import { countMatches, searchPage, TOP_SCORE_SQL, type SearchType } from '../src/main/engine/search';
import { sourceTuning } from '../src/main/engine/search/sources';
import { openDb, type Db } from '../src/main/engine/store/db';
import { migrate } from '../src/main/engine/store/migrate';

// Search benchmarks (issue 6): Skein's parse + compile + keyset page next to hand-written SQL for
// the same question on the same seeded corpus. Quick: the small corpus (2,000 posts); full: the
// large one (1,000,000 posts). Nothing here asserts a timing.

// One seeded corpus per process and scale, shared by the benches below (seeding the large one
// takes minutes); removed when the process exits. SKEIN_BENCH_SEARCH_DB names an already seeded
// corpus file to use instead (opened as is, never modified beyond ANALYZE).
const seeded = new Map<Scale, string>();

export function corpus(ctx: { quick: boolean }): { db: Db; scale: Scale } {
  const scale: Scale = ctx.quick ? 'small' : 'large';
  const given = process.env.SKEIN_BENCH_SEARCH_DB;
  let file = given ?? seeded.get(scale);
  if (!file) {
    const dir = mkdtempSync(join(tmpdir(), 'skein-search-bench-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    file = join(dir, 'search.db');
    const db = openDb(file);
    migrate(db);
    seedCorpus(db, { scale, seed: 1 });
    db.exec('ANALYZE');
    db.close();
    seeded.set(scale, file);
  }
  const db = openDb(file);
  migrate(db);
  if (given) db.exec('ANALYZE');
  // A given file is named by its size, not by the scale this run would have seeded (10M: "xl").
  if (given) {
    const posts = db.prepare('SELECT count(*) FROM posts').pluck().get() as number;
    return { db, scale: posts >= 5_000_000 ? 'xl' : posts >= 500_000 ? 'large' : 'small' };
  }
  return { db, scale };
}

/** Values taken from the corpus itself, so the queries match something at every scale. */
function samples(db: Db) {
  const one = (sql: string) => db.prepare(sql).safeIntegers(true).pluck().get() as bigint | string;
  return {
    tag: one('SELECT tag FROM post_hashtags GROUP BY tag ORDER BY count(*) DESC LIMIT 1') as string,
    symbol: one('SELECT symbol FROM post_symbols GROUP BY symbol ORDER BY count(*) DESC LIMIT 1') as string,
    user: one('SELECT u.screen_name_lower FROM posts p JOIN social_users u ON u.id = p.user_id GROUP BY p.user_id ORDER BY count(*) DESC LIMIT 1') as string,
    userId: one('SELECT user_id FROM posts GROUP BY user_id ORDER BY count(*) DESC LIMIT 1') as bigint,
    conversation: one('SELECT conversation_id FROM posts WHERE reply_depth > 0 GROUP BY conversation_id ORDER BY count(*) DESC LIMIT 1') as bigint,
  };
}

// [query, the same question as hand-written SQL returning ids newest first]
function cases(db: Db): [string, string, unknown[]][] {
  const s = samples(db);
  return [
    [`#${s.tag}`, 'SELECT post_id FROM post_hashtags WHERE tag = ? ORDER BY post_id DESC LIMIT 21', [s.tag]],
    [`$${s.symbol}`, 'SELECT post_id FROM post_symbols WHERE symbol = ? ORDER BY post_id DESC LIMIT 21', [s.symbol]],
    [`from:${s.user}`, 'SELECT id FROM posts WHERE user_id = ? ORDER BY id DESC LIMIT 21', [s.userId]],
    ['chart', "SELECT rowid FROM posts_fts WHERE posts_fts MATCH '\"chart\"' ORDER BY rowid DESC LIMIT 21", []],
    ['"second chart"', "SELECT rowid FROM posts_fts WHERE posts_fts MATCH '\"second chart\"' ORDER BY rowid DESC LIMIT 21", []],
    [
      `#${s.tag} lang:en -filter:replies`,
      'SELECT h.post_id FROM post_hashtags h JOIN posts p ON p.id = h.post_id WHERE h.tag = ? AND p.lang = ? AND p.in_reply_to_status_id IS NULL ORDER BY h.post_id DESC LIMIT 21',
      [s.tag, 'en'],
    ],
    [`conversation_id:${s.conversation}`, 'SELECT id FROM posts WHERE conversation_id = ? ORDER BY id DESC LIMIT 21', [s.conversation]],
    ['min_faves:50', 'SELECT id FROM posts WHERE favorite_count >= 50 ORDER BY id DESC LIMIT 21', []],
    [
      `from:${s.user} OR #${s.tag}`,
      'SELECT id FROM (SELECT id FROM posts WHERE user_id = ? ORDER BY id DESC LIMIT 21) UNION ' +
        'SELECT id FROM (SELECT post_id AS id FROM post_hashtags WHERE tag = ? ORDER BY post_id DESC LIMIT 21) ORDER BY id DESC LIMIT 21',
      [s.userId, s.tag],
    ],
  ];
}

const firstPages: Bench = {
  name: 'search: first page of 20 (9 query shapes)',
  unit: 'pages/s',
  higherIsBetter: true,
  target: 'ratio >= 0.5 (parse + compile + keyset page vs hand-written SQL)',
  baselineName: 'hand-written SQL for the same question, prepared once',
  async run(ctx) {
    const { db, scale } = corpus(ctx);
    const list = cases(db);
    const prepared = list.map(([, sql, params]) => ({ stmt: db.prepare(sql).safeIntegers(true).pluck(), params }));
    const rounds = ctx.quick ? 200 : 100;
    const perQuery: Record<string, number | string> = {};
    // Each shape's own ratio too, so the shape that pulls the whole down is named.
    for (const [i, [query]] of list.entries()) {
      // Warm first: the compile (its lookups, ~0.1-0.3 ms at 10M) is once per corpus change, not per page.
      searchPage(db, { query, limit: 20 });
      prepared[i]!.stmt.all(...prepared[i]!.params);
      const t = await throughput(() => {
        for (let r = 0; r < rounds; r++) searchPage(db, { query, limit: 20 });
        return rounds;
      });
      const hand = await throughput(() => {
        for (let r = 0; r < rounds; r++) prepared[i]!.stmt.all(...prepared[i]!.params);
        return rounds;
      });
      perQuery[`${query.slice(0, 40)} pages/s`] = Math.round(t);
      perQuery[`${query.slice(0, 40)} ratio`] = Math.round((t / hand) * 100) / 100;
    }
    const r = await sideBySide(
      ctx.quick ? 3 : 5,
      () => throughput(() => {
        for (let i = 0; i < rounds; i++) for (const [query] of list) searchPage(db, { query, limit: 20 });
        return rounds * list.length;
      }),
      () => throughput(() => {
        for (let i = 0; i < rounds; i++) for (const p of prepared) p.stmt.all(...p.params);
        return rounds * list.length;
      }),
    );
    db.close();
    return { ...r, extra: { scale, ...perQuery } };
  },
};

function pageAll(db: Db, query: string, type: SearchType): number {
  let cursor: string | null = null;
  let rows = 0;
  do {
    const page = searchPage(db, { query, type, cursor, limit: 1000 });
    rows += page.ids.length;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

function streamAll(db: Db, sql: string): number {
  let rows = 0;
  for (const _ of db.prepare(sql).safeIntegers(true).pluck().iterate()) rows++;
  return rows;
}

function pagingBench(type: SearchType): Bench {
  const order = type === 'Latest' ? 'p.id DESC' : `${TOP_SCORE_SQL} DESC, p.id DESC`;
  return {
    name: `search: page through every match, ${type} (lang:en, pages of 1000)`,
    unit: 'rows/s',
    higherIsBetter: true,
    target: 'ratio >= 0.5, flat memory',
    baselineName: 'one streaming SELECT of all matches in the same order (no paging)',
    async run(ctx) {
      const { db, scale } = corpus(ctx);
      const query = 'lang:en';
      const total = countMatches(db, { query });
      let peakSubject = 0;
      let peakBaseline = 0;
      const r = await sideBySide(
        ctx.quick ? 3 : 1,
        async () => {
          const { value, peakRssMb } = await withPeakRss(() => throughput(() => pageAll(db, query, type)));
          peakSubject = Math.max(peakSubject, peakRssMb);
          return value;
        },
        async () => {
          const { value, peakRssMb } = await withPeakRss(() => throughput(() => streamAll(db, `SELECT p.id FROM posts AS p WHERE p.lang = 'en' ORDER BY ${order}`)));
          peakBaseline = Math.max(peakBaseline, peakRssMb);
          return value;
        },
      );
      db.close();
      return {
        subject: { ...r.subject, peakRssMb: peakSubject },
        baseline: { ...r.baseline, peakRssMb: peakBaseline },
        extra: { scale, rows: total },
      };
    },
  };
}

/**
 * Queries made only of filters whose matches are rare (none to a few hundred of 1M posts), with
 * thresholds read from the corpus so they stay rare at every scale. Before migration 067 each one
 * read posts newest first until the page was full: about 1 s at 1M posts.
 */
function rareFilterQueries(db: Db): string[] {
  const total = Number(db.prepare('SELECT count(*) FROM posts').pluck().get());
  const nth = (column: string, n: number) =>
    Number(db.prepare(`SELECT ${column} FROM posts ORDER BY ${column} DESC LIMIT 1 OFFSET ?`).pluck().get(Math.max(5, Math.round(n))) ?? 0);
  const faves = Math.max(10, nth('favorite_count', total / 10_000));
  const retweets = Math.max(10, nth('retweet_count', total / 5_000));
  const url = (db.prepare('SELECT url FROM post_urls ORDER BY post_id DESC LIMIT 1 OFFSET ?').pluck().get(Math.floor(total / 20)) as string | undefined) ?? 'example';
  return [
    'lang:fr',
    `min_faves:${faves}`,
    `min_retweets:${retweets}`,
    'min_replies:10',
    `url:${url.replace(/^https?:\/\//, '')}`,
    'filter:media',
    'filter:quote lang:de min_retweets:100',
    'filter:self_threads lang:es min_faves:100',
    'filter:links lang:es min_faves:1000',
  ];
}

const rareFilters: Bench = {
  name: 'search: rare matches of filters only (lang:, counters, url:, filter:; 9 shapes, first page of 20)',
  unit: 'ms/query',
  higherIsBetter: false,
  target: '< 100 ms per query at 1M posts (issue 17), Latest and Top',
  baselineName: 'the same pages reading posts newest first (no filter index: before migration 067)',
  async run(ctx) {
    const { db, scale } = corpus(ctx);
    const file = db.name;
    const queries = rareFilterQueries(db);
    db.close();
    // A fresh connection per run: each query's first page pays its compile (the filters' counts)
    // and starts from a cold SQLite page cache, as a user's first search does.
    const timed = (off: boolean) => {
      const conn = openDb(file);
      const saved = { ...sourceTuning };
      if (off) Object.assign(sourceTuning, { orderedMax: -1, listMax: -1, narrowMax: -1 });
      try {
        return queries.map((query) =>
          (['Latest', 'Top'] as const).map((type) => {
            const started = performance.now();
            searchPage(conn, { query, type, limit: 20 });
            return performance.now() - started;
          }),
        );
      } finally {
        Object.assign(sourceTuning, saved);
        conn.close();
      }
    };
    const perQuery = (ms: number[][]) => ms.flat().reduce((a, b) => a + b, 0) / (queries.length * 2);
    const runs = ctx.quick ? 3 : 1;
    let last: number[][] = [];
    let slowest = 0;
    const r = await sideBySide(
      runs,
      () => {
        last = timed(false);
        slowest = Math.max(slowest, ...last.flat());
        return perQuery(last);
      },
      () => perQuery(timed(true)),
    );
    const extra: Record<string, number | string> = { scale, 'slowest ms': slowest };
    queries.forEach((query, i) => {
      extra[`${query} Latest/Top ms`] = `${last[i]![0]!.toFixed(1)}/${last[i]![1]!.toFixed(1)}`;
    });
    return { ...r, extra };
  },
};

export default [firstPages, pagingBench('Latest'), pagingBench('Top'), rareFilters] satisfies Bench[];
