import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import type { Overview, OverviewCount } from '../../../shared/contract';
import { autoBucket, bucketOf, bucketSql, bucketStartMs, fittingBucket, MAX_BUCKETS, type Bucket } from './buckets';
import { matchSql, type OverviewScope } from './match';
import { clientSql, domainsWith } from './sql';

// The overview of a set of posts (a search query's matches, a user's posts): every figure is a
// grouped query in SQLite. The set's ids and the per-post columns the groups need are written
// once into a TEMP table (this connection only; TEMP writes take no lock on the corpus file), so
// the seven grouped queries each read that small table instead of re-running the search and
// looking up every post again.

/** Most posts one overview counts, newest first: about 2 s at the 1M-post bench's ~500k posts/s. */
export const OVERVIEW_CAP = 1_000_000;
export const DEFAULT_TOP = 10;
export const MAX_TOP = 100;

export interface OverviewOptions {
  bucket?: Bucket;
  /** Minutes east of UTC of the zone the buckets follow (0: UTC). A fixed offset: DST is not followed. */
  utcOffsetMinutes?: number;
  top?: number;
}

/** One entry of a top list; the shapes are the contract's (src/shared/contract.ts), so the handler passes them on as they are. */
export type Counted = OverviewCount;

/** An overview without its scope, which the handler adds. */
export type OverviewResult = Omit<Overview, 'scope'>;

const KIND_POST = 0;
const KIND_REPLY = 1;
const KIND_QUOTE = 2;

// No primary key: the set comes newest first, and rows appended in rowid order cost less than
// keys inserted in descending order (at 1M posts, 98,433 posts: 381 against 429 ms); nothing looks
// a post up by id in it, the groups read it whole. The client is cut from the source per post:
// grouping the raw sources instead (to cut each distinct one once) sorts 98,433 strings of about
// 80 bytes, 160 ms against the 100 ms the cutting costs.
const TEMP_TABLE =
  'CREATE TEMP TABLE IF NOT EXISTS overview_posts (id INTEGER NOT NULL, user_id INTEGER NOT NULL, ' +
  'created_at_us INTEGER NOT NULL, kind INTEGER NOT NULL, lang TEXT NOT NULL, client TEXT NOT NULL)';

export function computeOverview(db: Db, scope: OverviewScope, options: OverviewOptions = {}): OverviewResult {
  const offset = options.utcOffsetMinutes ?? 0;
  const top = options.top ?? DEFAULT_TOP;
  return db.transaction(() => {
    db.exec(TEMP_TABLE);
    db.exec('DELETE FROM temp.overview_posts');
    try {
      fill(db, scope);
      return figures(db, options.bucket, offset, top);
    } finally {
      db.exec('DELETE FROM temp.overview_posts');
    }
  })();
}

// Statements per connection, by SQL text: an overview runs eight, and preparing them again each
// time cost about 1 ms of a 2 ms overview of 200 posts. Bounded: the fill's text follows the query.
const MAX_STATEMENTS = 100;
const statements = new WeakMap<Db, Map<string, Statement>>();

function prepared(db: Db, sql: string): Statement {
  let byDb = statements.get(db);
  if (!byDb) statements.set(db, (byDb = new Map()));
  let stmt = byDb.get(sql);
  if (!stmt) {
    if (byDb.size >= MAX_STATEMENTS) byDb.delete(byDb.keys().next().value!);
    stmt = db.prepare(sql);
    byDb.set(sql, stmt);
  }
  return stmt;
}

const KIND = `CASE WHEN p.in_reply_to_status_id IS NOT NULL THEN ${KIND_REPLY} WHEN p.is_quote_status = 1 OR p.quoted_status_id IS NOT NULL THEN ${KIND_QUOTE} ELSE ${KIND_POST} END`;
const COLUMNS = `p.id, p.user_id, p.created_at_us, ${KIND}, p.lang, ${clientSql('p.source')}`;

/** The set's posts, at most one past the cap, each read once (match.ts). */
function fill(db: Db, scope: OverviewScope): void {
  const match = matchSql(db, scope, OVERVIEW_CAP + 1, COLUMNS);
  if (match) prepared(db, `INSERT INTO temp.overview_posts (id, user_id, created_at_us, kind, lang, client) ${match.sql}`).run(...match.params);
}

function figures(db: Db, asked: Bucket | undefined, offset: number, top: number): OverviewResult {
  const totals = prepared(
    db,
    `SELECT count(*) AS n, count(DISTINCT user_id) AS authors, coalesce(sum(kind = ${KIND_REPLY}), 0) AS replies, ` +
      `coalesce(sum(kind = ${KIND_QUOTE}), 0) AS quotes, min(created_at_us) AS lo, max(created_at_us) AS hi FROM temp.overview_posts`,
  ).get() as { n: number; authors: number; replies: number; quotes: number; lo: number | null; hi: number | null };
  const capped = totals.n > OVERVIEW_CAP;
  if (capped) {
    // One row past the cap tells "more"; the oldest is left out so the figures are of the cap.
    db.exec('DELETE FROM temp.overview_posts WHERE id = (SELECT min(id) FROM temp.overview_posts)');
    return { ...figures(db, asked, offset, top), capped: true };
  }
  const firstMs = totals.lo === null ? null : Math.floor(totals.lo / 1000);
  const lastMs = totals.hi === null ? null : Math.floor(totals.hi / 1000);
  const wanted = asked ?? autoBucket(firstMs === null || lastMs === null ? 0 : lastMs - firstMs);
  const bucket = firstMs === null || lastMs === null ? wanted : fittingBucket(wanted, firstMs, lastMs, offset);
  const share = (k: number) => (totals.n === 0 ? 0 : k / totals.n);
  return {
    posts: totals.n,
    replies: totals.replies,
    quotes: totals.quotes,
    unique_authors: totals.authors,
    reply_share: share(totals.replies),
    quote_share: share(totals.quotes),
    capped: false,
    first_post_ms: firstMs,
    last_post_ms: lastMs,
    bucket,
    bucket_requested: bucket === wanted || asked === undefined ? null : asked,
    utc_offset_minutes: offset,
    series: firstMs === null || lastMs === null ? { start_ms: [], posts: [], replies: [], quotes: [] } : series(db, bucket, offset, firstMs, lastMs),
    hashtags: counted(db, 'SELECT h.tag AS value, count(*) AS count FROM temp.overview_posts AS m CROSS JOIN post_hashtags AS h INDEXED BY post_hashtags_post ON h.post_id = m.id GROUP BY h.tag', top),
    mentions: counted(db, 'SELECT e.screen_name AS value, count(*) AS count FROM temp.overview_posts AS m CROSS JOIN post_mentions AS e INDEXED BY post_mentions_post ON e.post_id = m.id GROUP BY e.screen_name', top),
    // A post linking one site twice counts once for it.
    domains: counted(
      db,
      `${domainsWith('SELECT u.post_id, u.url FROM temp.overview_posts AS m CROSS JOIN post_urls AS u INDEXED BY post_urls_post ON u.post_id = m.id')}` +
        "SELECT domain AS value, count(DISTINCT post_id) AS count FROM domains WHERE domain <> '' GROUP BY domain",
      top,
    ),
    languages: counted(db, 'SELECT lang AS value, count(*) AS count FROM temp.overview_posts GROUP BY lang', top),
    clients: counted(db, "SELECT client AS value, count(*) AS count FROM temp.overview_posts WHERE client <> '' GROUP BY client", top),
  };
}

/** The `top` largest groups, ties by value so the order is stable. */
function counted(db: Db, grouped: string, top: number): Counted[] {
  return prepared(db, `${grouped} ORDER BY count DESC, value LIMIT ?`).all(top) as Counted[];
}

/** Counts per bucket and kind, filled with zeros between the first and the last post. */
function series(db: Db, bucket: Bucket, offset: number, firstMs: number, lastMs: number): OverviewResult['series'] {
  const last = bucketOf(bucket, lastMs, offset);
  // A corpus spanning more than MAX_BUCKETS months (dates from a broken import) keeps the newest.
  const first = Math.max(bucketOf(bucket, firstMs, offset), last - MAX_BUCKETS + 1);
  const n = last - first + 1;
  const out = { start_ms: new Array<number>(n), posts: new Array<number>(n).fill(0), replies: new Array<number>(n).fill(0), quotes: new Array<number>(n).fill(0) };
  for (let i = 0; i < n; i++) out.start_ms[i] = bucketStartMs(bucket, first + i, offset);
  const rows = prepared(db, `SELECT ${bucketSql(bucket, 'created_at_us', offset)} AS b, kind, count(*) AS n FROM temp.overview_posts GROUP BY b, kind`)
    .raw(true)
    .all() as [number, number, number][];
  const byKind = [out.posts, out.replies, out.quotes];
  for (const [b, kind, count] of rows) {
    if (b >= first && b <= last) byKind[kind]![b - first] = count;
  }
  return out;
}
