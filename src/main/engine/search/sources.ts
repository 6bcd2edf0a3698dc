import type { Db } from '../store/db';
import type { OperatorNode, QueryNode } from './ast';
import type { DriverPlan, Sql } from './compile';
import { countOf } from './statements';

// The selective side of a query made only of filters (`lang:`, counters, `filter:`, `url:`), for
// which no operator names the posts the way `from:` or `#tag` do. Each such filter can list its
// posts from an index (migration 067; post_urls for `url:`); the filter listing the fewest posts
// drives the query, so a page reads about as many posts as that filter has instead of every post
// newest first until the page is full: about 1 s at 1M posts when matches are rare. When every
// filter lists many posts, matches are common and reading posts newest first stays cheaper.
//
// Two kinds of source. An *ordered* one yields its posts in id order (a language, media, links:
// an index range with one key value), so a Latest page stops after its rows. A *listed* one
// (counters, quotes, self-threads, replies, urls) is read whole into the IN list SQLite builds
// once per statement, which it then walks in id order; its cost is the list's length on every
// page, hence its lower limit.

/**
 * orderedMax: an ordered source with more posts than this does not drive (at 1M posts, a tenth: a
 * language's posts read through its index cost about twice a row read in order, and English, 88%
 * of the bench corpus, is read faster straight from posts). listMax: a listed source with more
 * posts does not drive (listing 50,000 entries costs about 2 ms a page). narrowMax: the other
 * sources with at most this many posts narrow the driver by id (100,000 entries: about 4 ms a
 * page, against a posts row read for every driver entry). Exported for tests.
 */
export const sourceTuning = { orderedMax: 100_000, listMax: 50_000, narrowMax: 50_000 };

/** Counters are indexed from this value up (migration 067); a lower threshold is met by most posts. */
export const COUNTER_INDEX_FROM = 10;

export type SourceKind = 'lang' | 'filter' | 'count' | 'url';

interface Source {
  node: OperatorNode;
  kind: SourceKind;
  ordered: boolean;
  /** SELECT of the source's post ids under alias `a` (an id may repeat, for `url:`), to count and to list. */
  list: (a: string) => Sql;
  /** For an ordered source: the index and its condition over `posts AS p`. */
  index?: { name: string; where: Sql };
}

/**
 * `url:` is a substring of a link. post_urls and the operator's value are both lower-cased by
 * JavaScript (corpus/write/entities.ts, search/operators.ts), so `instr` finds exactly what an
 * escaped `LIKE '%text%'` found, in 7.0 ms against 11.5 ms over the 124,595 links at 1M posts.
 */
export const URL_CONTAINS = (alias: string) => `instr(${alias}.url, ?) > 0`;

const COUNTERS = {
  min_faves: { column: 'favorite_count', index: 'posts_favorites' },
  min_retweets: { column: 'retweet_count', index: 'posts_retweets' },
  min_replies: { column: 'reply_count', index: 'posts_replies' },
} as const;

const FILTERS = {
  media: { index: 'posts_media', where: 'has_media = 1', ordered: true },
  links: { index: 'posts_links', where: 'has_links = 1', ordered: true },
  quote: { index: 'posts_quotes', where: '(is_quote_status = 1 OR quoted_status_id IS NOT NULL)', ordered: false },
  self_threads: { index: 'posts_self_threads', where: 'in_reply_to_status_id IS NOT NULL AND in_reply_to_user_id IS user_id', ordered: false },
  replies: { index: 'posts_in_reply_to', where: 'in_reply_to_status_id IS NOT NULL', ordered: false },
} as const;

/** A condition written over bare column names, for alias `a`. */
const over = (a: string, where: string) => where.replace(/\b(has_media|has_links|is_quote_status|quoted_status_id|in_reply_to_status_id|in_reply_to_user_id|user_id)\b/g, `${a}.$1`);

function sourceOf(node: QueryNode): Source | null {
  if (node.kind !== 'operator') return null;
  const v = node.value;
  if (node.op === 'lang' && v.type === 'name') {
    return {
      node,
      kind: 'lang',
      ordered: true,
      list: (a) => ({ sql: `SELECT ${a}.id FROM posts AS ${a} INDEXED BY posts_lang WHERE ${a}.lang = ? COLLATE NOCASE`, params: [v.name] }),
      index: { name: 'posts_lang', where: { sql: 'p.lang = ? COLLATE NOCASE', params: [v.name] } },
    };
  }
  if ((node.op === 'min_faves' || node.op === 'min_retweets' || node.op === 'min_replies') && v.type === 'count') {
    if (v.n < COUNTER_INDEX_FROM) return null;
    const { column, index } = COUNTERS[node.op];
    // The partial index's own condition (a constant) is stated, so SQLite may use the index.
    const list = (a: string): Sql => ({ sql: `SELECT ${a}.id FROM posts AS ${a} INDEXED BY ${index} WHERE ${a}.${column} >= ${COUNTER_INDEX_FROM} AND ${a}.${column} >= ?`, params: [v.n] });
    return { node, kind: 'count', ordered: false, list };
  }
  if (node.op === 'filter' && v.type === 'filter') {
    const f = FILTERS[v.filter];
    const list = (a: string): Sql => ({ sql: `SELECT ${a}.id FROM posts AS ${a} INDEXED BY ${f.index} WHERE ${over(a, f.where)}`, params: [] });
    if (!f.ordered) return { node, kind: 'filter', ordered: false, list };
    return { node, kind: 'filter', ordered: true, list, index: { name: f.index, where: { sql: over('p', f.where), params: [] } } };
  }
  if (node.op === 'url' && v.type === 'name') {
    const list = (a: string): Sql => ({ sql: `SELECT ${a}.post_id FROM post_urls AS ${a} WHERE ${URL_CONTAINS(a)}`, params: [v.name] });
    return { node, kind: 'url', ordered: false, list };
  }
  return null;
}

/** The source's list narrowed to the ids also in each of `also` (alias s0; the others s1, s2...). */
function narrowed(source: Source, also: readonly Source[]): Sql {
  const base = source.list('s0');
  const id = source.kind === 'url' ? 's0.post_id' : 's0.id';
  const parts = also.map((other, i) => other.list(`s${i + 1}`));
  return {
    sql: `${base.sql}${parts.map((part) => ` AND ${id} IN (${part.sql})`).join('')}`,
    params: [...base.params, ...parts.flatMap((part) => part.params)],
  };
}

/**
 * The conjunct whose index lists the fewest posts, as the query's driver, or null when none lists
 * few enough. Each candidate is counted only up to its limit, so choosing costs at most that many
 * index entries per candidate, once per compiled query (compile.ts keeps it while the corpus is
 * unchanged). The other sources small enough to list narrow the driver's list by id before any
 * posts row is read: at 1M posts, `filter:quote lang:de min_retweets:100` reads 22,477 posts
 * through the retweets list alone (43 ms) and the quoted ones among them once narrowed by the
 * quotes list (12 ms).
 */
export function chooseSource(db: Db, conjuncts: readonly QueryNode[]): { node: QueryNode; plan: DriverPlan; narrow: Sql[] } | null {
  const usable: { source: Source; posts: number; drives: boolean }[] = [];
  for (const node of conjuncts) {
    const source = sourceOf(node);
    if (!source) continue;
    const drives = source.ordered ? sourceTuning.orderedMax : sourceTuning.listMax;
    const max = Math.max(drives, sourceTuning.narrowMax);
    const list = source.list('c');
    const posts = countOf(db, `SELECT count(*) FROM (${list.sql} LIMIT ?)`, [...list.params, max + 1]);
    if (posts <= max) usable.push({ source, posts, drives: posts <= drives });
  }
  // The fewest posts first; on a tie the ordered source (no list to build).
  usable.sort((a, b) => a.posts - b.posts || Number(b.source.ordered) - Number(a.source.ordered));
  const best = usable.find((u) => u.drives);
  if (!best) return null;
  const others = usable.filter((u) => u !== best && u.posts <= sourceTuning.narrowMax).map((u) => u.source);
  const { source } = best;
  if (source.index) {
    // An ordered driver checks the others' lists by rowid, before it reads a posts row.
    const narrow = others.map((other) => {
      const list = other.list('c');
      return { sql: `p.id IN (${list.sql})`, params: list.params };
    });
    return { node: source.node, narrow, plan: { driver: source.kind, from: `posts AS p INDEXED BY ${source.index.name}`, bareFrom: null, idColumn: 'p.id', driverWhere: source.index.where } };
  }
  // SQLite builds the list once per statement and walks it in id order (no sort): a Latest page
  // looks up only the posts it passes on its way to a full page. NOT INDEXED: by rowid only, so no
  // other filter's index can take the list's place.
  const list = narrowed(source, others);
  return {
    node: source.node,
    narrow: [],
    plan: { driver: source.kind, from: 'posts AS p NOT INDEXED', bareFrom: null, idColumn: 'p.id', driverWhere: { sql: `p.id IN (${list.sql})`, params: list.params }, driverList: list },
  };
}
