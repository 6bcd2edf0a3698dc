import { type Bench, median } from './lib';
import { corpus } from './search.bench';
import { computeOverview } from '../src/main/engine/overview';
import type { Db } from '../src/main/engine/store/db';

// The overview (issue 16) of a word matching about a tenth of the corpus (98,433 of the 1M posts
// in full mode: "not"; about 200 of 2,000 in quick), next to the same grouped SQL written by hand:
// the same seven questions, each one statement over the matching posts. (No hashtag is that
// common: the most used one tags 18,730 posts at 1M.) SKEIN_BENCH_SEARCH_DB names a seeded corpus
// to use (search.bench.ts corpus()). Nothing here asserts a timing.

const CLIENT = "CASE WHEN instr(p.source, '>') > 0 AND instr(p.source, '</a>') > instr(p.source, '>') THEN substr(p.source, instr(p.source, '>') + 1, instr(p.source, '</a>') - instr(p.source, '>') - 1) ELSE p.source END";

function handWritten(db: Db) {
  // The same set as the search's: the word's posts, protected accounts' left out.
  const m = 'p.id IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ?) AND p.user_id NOT IN (SELECT id FROM social_users WHERE protected = 1)';
  const host = "rtrim(substr(substr(u.url, instr(u.url, '://') + 3), 1, instr(substr(u.url, instr(u.url, '://') + 3) || '/', '/') - 1))";
  const sqls = [
    `SELECT count(*), count(DISTINCT p.user_id), sum(p.in_reply_to_status_id IS NOT NULL), sum(p.in_reply_to_status_id IS NULL AND (p.is_quote_status = 1 OR p.quoted_status_id IS NOT NULL)), min(p.created_at_us), max(p.created_at_us) FROM posts p WHERE ${m}`,
    `SELECT p.created_at_us / 86400000000 AS b, p.in_reply_to_status_id IS NOT NULL, count(*) FROM posts p WHERE ${m} GROUP BY 1, 2`,
    `SELECT h.tag, count(*) AS n FROM posts p JOIN post_hashtags h ON h.post_id = p.id WHERE ${m} GROUP BY h.tag ORDER BY n DESC LIMIT 10`,
    `SELECT e.screen_name, count(*) AS n FROM posts p JOIN post_mentions e ON e.post_id = p.id WHERE ${m} GROUP BY e.screen_name ORDER BY n DESC LIMIT 10`,
    `SELECT ${host} AS d, count(DISTINCT p.id) AS n FROM posts p JOIN post_urls u ON u.post_id = p.id WHERE ${m} GROUP BY d ORDER BY n DESC LIMIT 10`,
    `SELECT p.lang, count(*) AS n FROM posts p WHERE ${m} GROUP BY p.lang ORDER BY n DESC LIMIT 10`,
    `SELECT ${CLIENT} AS c, count(*) AS n FROM posts p WHERE ${m} GROUP BY c ORDER BY n DESC LIMIT 10`,
  ].map((sql) => db.prepare(sql).raw(true));
  return (match: string) => sqls.map((s) => s.all(match));
}

/** The word of three letters or more whose posts are closest to a tenth of the corpus. */
function commonWord(db: Db, total: number): { word: string; posts: number } {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.bench_vocab USING fts5vocab(main, posts_fts, row)');
  const row = db.prepare('SELECT term, doc FROM temp.bench_vocab WHERE length(term) >= 3 ORDER BY abs(doc - ?), term LIMIT 1').get(Math.round(total / 10)) as { term: string; doc: number };
  db.exec('DROP TABLE temp.bench_vocab');
  return { word: row.term, posts: row.doc };
}

const overview: Bench = {
  name: 'overview: a word matching ~10% of the corpus (7 grouped queries)',
  unit: 'ms',
  higherIsBetter: false,
  target: 'under 1,000 ms for 100,000 matching posts of 1M (issue 16)',
  baselineName: 'the same grouped SQL written by hand, prepared once',
  async run(ctx) {
    const { db, scale } = corpus(ctx);
    const total = db.prepare('SELECT count(*) FROM posts').pluck().get() as number;
    const { word } = commonWord(db, total);
    const hand = handWritten(db);
    const runs = ctx.quick ? 5 : 5;
    const s: number[] = [];
    const b: number[] = [];
    let matched = 0;
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      hand(`"${word}"`);
      b.push(performance.now() - t);
      t = performance.now();
      matched = computeOverview(db, { query: word }).posts;
      s.push(performance.now() - t);
    }
    db.close();
    return { subject: { median: median(s), values: s }, baseline: { median: median(b), values: b }, extra: { scale, query: word, matched } };
  },
};

export default [overview] satisfies Bench[];
