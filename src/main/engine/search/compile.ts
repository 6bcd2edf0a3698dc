import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import type { OperatorNode, QueryNode } from './ast';
import { ftsConjunction, ftsExpression, isTextTerm } from './fts';
import { parseQuery } from './parser';
import { PUBLIC_AUTHOR, protectedExclusion, protectedTuning } from './protected';
import { chooseSource, sourceTuning, URL_CONTAINS, type SourceKind } from './sources';

// The tree as SQL over `posts AS p`. The top-level AND picks one *driver*: the index that yields
// candidate ids already in id order (FTS5 rowids, an entity table's (value, post_id) key, the
// (user_id, id) timeline index...), so a Latest page is a range scan that stops after `limit`
// rows instead of collecting every match. Everything else is a per-row predicate that probes an
// index by post id (correlated EXISTS). Every user value is a bound parameter.

export interface CompileOptions {
  /** Exclusive lower bound: only ids greater than this. */
  sinceId?: bigint;
  /** Inclusive upper bound, as `max_id:<ID>`. */
  maxId?: bigint;
  /** Reply levels to keep (conversation root = 0); reply collection uses {min: 1, max: 2}. */
  replyDepth?: { min: number; max: number };
}

export type DriverKind = 'fts' | 'hashtag' | 'cashtag' | 'mention' | 'from' | 'conversation' | 'quoted' | 'posts' | SourceKind;

export interface Sql {
  sql: string;
  params: unknown[];
}

export interface CompiledQuery {
  ast: QueryNode;
  driver: DriverKind;
  /** FROM clause: the driving table, joined to `posts AS p`. */
  from: string;
  /**
   * The driving table alone, for pages that need nothing from posts (Latest with no other
   * predicate): an FTS5 or entity row always has its post (external content; ON DELETE CASCADE).
   */
  bareFrom: string | null;
  /** The driver's own condition (true when the driver is the posts table itself). */
  driverWhere: Sql;
  /** The driver's id column: ordered and range-seekable. */
  idColumn: string;
  /** The driver's condition as a per-row predicate over p, for plans that walk another index. */
  driverPredicate: Sql;
  /** Everything the driver does not already guarantee; `1` when nothing is left. */
  where: Sql;
  /** Bounds from since_id:, max_id: and the options: lowId < id <= highId. */
  lowId: bigint | null;
  highId: bigint | null;
  /**
   * When no single index drives the query but one OR has a driver in every branch
   * (`from:a OR from:b`, `(#x OR #y) lang:en`): one compiled arm per branch, each with the
   * rest of the query, to be merged with UNION (each arm an ordered range that stops early).
   * The fields above then describe the fallback scan and are not used for paging.
   */
  union: CompiledQuery[] | null;
  /** The ids a listed source drives with (search/sources.ts): counted as they are read, with no list built. */
  driverList: Sql | null;
  /**
   * Protected accounts' posts, when they are few (protected.ts): left out by id on whichever id
   * column the plan reads (statements.ts baseWhere), so a driver needs no posts row for it.
   */
  excludeIds: bigint[];
}

/** Arms of a UNION plan; beyond this a scan of posts is as good. */
const MAX_UNION_ARMS = 16;

/** Screen names resolved per query; a name the corpus holds many times (renames) stays bounded. */
const MAX_USERS_PER_NAME = 100;

export function compileQuery(db: Db, query: string | QueryNode, options: CompileOptions = {}): CompiledQuery {
  if (typeof query !== 'string') return compileFresh(db, query, options);
  const cache = compiledCache(db);
  // The tunings are part of the key: tests change them to force each plan on an unchanged corpus.
  const tuning = `${protectedTuning.maxIds},${sourceTuning.orderedMax},${sourceTuning.listMax}`;
  const key = `${options.sinceId ?? ''}|${options.maxId ?? ''}|${options.replyDepth ? `${options.replyDepth.min}-${options.replyDepth.max}` : ''}|${tuning}|${query}`;
  let q = cache.get(key);
  if (!q) {
    q = compileFresh(db, parseQuery(query), options);
    if (cache.size >= MAX_CACHED_QUERIES) cache.delete(cache.keys().next().value!);
    cache.set(key, q);
  }
  return q;
}

// Compiled queries per database, kept while the corpus is unchanged: a compile reads screen names,
// the protected accounts' posts and a time window's id range, so it is valid exactly as long as the
// tables are. PRAGMA data_version moves when another connection commits, total_changes() when this
// one writes (even in a transaction later rolled back: that only drops the cache early). Both cost
// 0.1 µs inside the page's read transaction; a first page of `from:name` recompiled costs 17 µs
// (the screen name and protected-posts lookups), more than the page's own SQL
// (docs/decisions.md "Search: one read transaction per page, compiled queries kept").
const MAX_CACHED_QUERIES = 200;
const caches = new WeakMap<Db, { version: Statement<unknown[]>; seen: string; byKey: Map<string, CompiledQuery> }>();

function compiledCache(db: Db): Map<string, CompiledQuery> {
  let c = caches.get(db);
  if (!c) {
    c = { version: db.prepare<unknown[]>('SELECT data_version, total_changes() FROM pragma_data_version').raw(true), seen: '', byKey: new Map() };
    caches.set(db, c);
  }
  const [data, changes] = c.version.get() as [number, number];
  const seen = `${data}:${changes}`;
  if (seen !== c.seen) {
    c.seen = seen;
    c.byKey.clear();
  }
  return c.byKey;
}

/** Compiled queries are shared (compileQuery's cache): nothing may change one after this. */
function compileFresh(db: Db, ast: QueryNode, options: CompileOptions): CompiledQuery {
  // Protected accounts' posts are never a match (search/protected.ts), in every arm of every plan.
  const exclusion = protectedExclusion(db);
  const excluded: Excluded = {
    authors: exclusion.kind === 'authors' ? [PUBLIC_AUTHOR] : [],
    ids: exclusion.kind === 'ids' ? exclusion.ids : [],
  };
  return compileWith(db, ast, options, true, excluded);
}

/** Protected accounts' posts: by author (a predicate over p) or by id (CompiledQuery.excludeIds). */
interface Excluded {
  authors: Sql[];
  ids: bigint[];
}

function compileWith(db: Db, ast: QueryNode, options: CompileOptions, allowUnion: boolean, excluded: Excluded): CompiledQuery {
  const users = userResolver(db);
  const conjuncts = ast.kind === 'and' ? [...ast.children] : [ast];

  // Top-level id bounds become a range on the driver's id column, not a filter.
  let lowId = options.sinceId ?? null;
  let highId = options.maxId ?? null;
  const rest: QueryNode[] = [];
  for (const c of conjuncts) {
    if (c.kind === 'operator' && c.value.type === 'id' && c.op === 'since_id') {
      lowId = lowId === null || c.value.id > lowId ? c.value.id : lowId;
    } else if (c.kind === 'operator' && c.value.type === 'id' && c.op === 'max_id') {
      highId = highId === null || c.value.id < highId ? c.value.id : highId;
    } else rest.push(c);
  }

  // All text conjuncts become one MATCH (one FTS5 lookup instead of one per word).
  const text = rest.filter(isTextTerm);
  const fts = text.length > 0 ? ftsConjunction(text) : null;
  const others = fts === null ? rest : rest.filter((c) => !text.includes(c));

  const predicates: Sql[] = [];
  if (options.replyDepth) {
    predicates.push({ sql: 'p.reply_depth BETWEEN ? AND ?', params: [options.replyDepth.min, options.replyDepth.max] });
  }

  // Full text drives before any filter: checking a word per post costs more than reading a post.
  const named = chooseDriver(others, users);
  const source = named === null && fts === null ? chooseSource(db, others) : null;
  const pick: DriverPick | null = named ?? source;
  if (source) predicates.unshift(...source.narrow);
  let driver: DriverKind = 'posts';
  // No driver: posts newest first, by rowid. NOT INDEXED keeps SQLite from trading that order for
  // an index on a filter (migration 067's posts_lang for lang:en, 88% of posts, is slower to read).
  let from = 'posts AS p NOT INDEXED';
  let bareFrom: string | null = null;
  let idColumn = 'p.id';
  let driverWhere: Sql = { sql: '1', params: [] };
  if (pick) {
    ({ driver, from, bareFrom, idColumn, driverWhere } = pick.plan);
  } else if (fts !== null) {
    driver = 'fts';
    from = 'posts_fts CROSS JOIN posts AS p ON p.id = posts_fts.rowid';
    bareFrom = 'posts_fts';
    idColumn = 'posts_fts.rowid';
    driverWhere = { sql: 'posts_fts MATCH ?', params: [fts] };
  }
  if (fts !== null && driver !== 'fts') predicates.push(ftsPredicate(fts));
  for (const c of others) if (c !== pick?.node) predicates.push(predicate(c, users));
  predicates.push(...excluded.authors);

  let driverPredicate: Sql = { sql: '1', params: [] };
  if (pick) driverPredicate = predicate(pick.node, users);
  else if (driver === 'fts' && fts !== null) driverPredicate = ftsPredicate(fts);

  // A time window (since:, until:, since_time:, until_time: at the top level) also bounds ids.
  const window = timeWindow(db, others);
  if (window === 'empty') predicates.push({ sql: '0', params: [] });
  else if (window) {
    if (lowId === null || window.lowId > lowId) lowId = window.lowId;
    if (highId === null || window.highId < highId) highId = window.highId;
  }

  const where = joinSql(predicates, 'AND', '1');
  if (where.sql === FALSE) return matchesNothing(ast, lowId, highId);
  const union = driver === 'posts' && allowUnion ? unionArms(db, others, { ...options, lowId, highId }, excluded) : null;
  return { ast, driver, from, bareFrom, driverWhere, driverPredicate, idColumn, where, lowId, highId, union, driverList: pick?.plan.driverList ?? null, excludeIds: excluded.ids };
}

const FALSE = '0';
const TRUE = '1';

/**
 * A query that can match no post (`from:` a name no public account has, an empty time window):
 * no driver. Forcing a partial index (INDEXED BY posts_quoted) on a WHERE that SQLite folds to
 * false is "no query solution", and searchPage answers such a query without SQL anyway.
 */
function matchesNothing(ast: QueryNode, lowId: bigint | null, highId: bigint | null): CompiledQuery {
  const always: Sql = { sql: TRUE, params: [] };
  return { ast, driver: 'posts', from: 'posts AS p', bareFrom: null, driverWhere: always, driverPredicate: always, idColumn: 'p.id', where: { sql: FALSE, params: [] }, lowId, highId, union: null, driverList: null, excludeIds: [] };
}

/** Posts in a time window past which the id range is not worth narrowing: it is most of the corpus. */
const MAX_WINDOW_POSTS = 50_000;

/**
 * The id range [lowId + 1, highId] holding every post of the query's time window, read from the
 * posts_created index (covering: it holds the rowid), when the window has at most
 * MAX_WINDOW_POSTS posts. Ids need not follow time for this to be exact: the range covers the
 * window's smallest and largest id, and the time predicates still apply. With the platform's
 * time-ordered ids it is tight, so `until:` far in the past does not scan every newer post.
 */
function timeWindow(db: Db, conjuncts: readonly QueryNode[]): { lowId: bigint; highId: bigint } | 'empty' | null {
  let from: number | null = null;
  let until: number | null = null;
  for (const c of conjuncts) {
    if (c.kind !== 'operator' || c.value.type !== 'time_us') continue;
    if (c.op === 'since' || c.op === 'since_time') from = from === null ? c.value.us : Math.max(from, c.value.us);
    if (c.op === 'until' || c.op === 'until_time') until = until === null ? c.value.us : Math.min(until, c.value.us);
  }
  if (from === null && until === null) return null;
  let stmt = windowStatements.get(db);
  if (!stmt) {
    stmt = db
      .prepare<unknown[]>(
        'SELECT count(*) AS n, min(id) AS lo, max(id) AS hi FROM (SELECT id FROM posts INDEXED BY posts_created ' +
          'WHERE created_at_us >= ? AND created_at_us < ? LIMIT ?)',
      )
      .safeIntegers(true);
    windowStatements.set(db, stmt);
  }
  const row = stmt.get(from ?? Number.MIN_SAFE_INTEGER, until ?? Number.MAX_SAFE_INTEGER, MAX_WINDOW_POSTS + 1) as { n: bigint; lo: bigint | null; hi: bigint | null };
  if (row.n === 0n) return 'empty';
  if (row.n > BigInt(MAX_WINDOW_POSTS) || row.lo === null || row.hi === null) return null;
  return { lowId: row.lo - 1n, highId: row.hi };
}

const windowStatements = new WeakMap<Db, Statement<unknown[]>>();

/** (B1 OR B2) AND R = (B1 AND R) OR (B2 AND R): arms for the first OR whose branches all have a driver. */
function unionArms(db: Db, conjuncts: QueryNode[], bounds: CompileOptions & { lowId: bigint | null; highId: bigint | null }, excluded: Excluded): CompiledQuery[] | null {
  const options: CompileOptions = {
    ...(bounds.lowId !== null ? { sinceId: bounds.lowId } : {}),
    ...(bounds.highId !== null ? { maxId: bounds.highId } : {}),
    ...(bounds.replyDepth ? { replyDepth: bounds.replyDepth } : {}),
  };
  for (const or of conjuncts) {
    if (or.kind !== 'or' || or.children.length > MAX_UNION_ARMS) continue;
    const rest = conjuncts.filter((c) => c !== or);
    const arms = or.children.map((branch) => {
      const children = [...(branch.kind === 'and' ? branch.children : [branch]), ...rest];
      const armAst: QueryNode = children.length === 1 ? children[0]! : { kind: 'and', children, start: or.start, end: or.end };
      return compileWith(db, armAst, options, false, excluded);
    }).filter((arm) => arm.where.sql !== FALSE); // a branch that matches nothing adds nothing
    if (arms.length > 0 && arms.every((a) => a.driver !== 'posts')) return arms;
  }
  return null;
}

/** How a driver reads its posts; see CompiledQuery. */
export interface DriverPlan {
  driver: DriverKind;
  from: string;
  bareFrom: string | null;
  idColumn: string;
  driverWhere: Sql;
  /** A listed source's ids (search/sources.ts), for counting them without building the list. */
  driverList?: Sql;
}

interface DriverPick {
  node: QueryNode;
  plan: DriverPlan;
}

// Most selective first, by what the operator means: one conversation or quoted post, one author,
// one entity value; full text comes last because a common word can match most of the corpus.
const DRIVER_ORDER: readonly OperatorNode['op'][] = ['conversation_id', 'quoted_tweet_id', 'from', 'mention', 'hashtag', 'cashtag'];

const ENTITY = {
  mention: { table: 'post_mentions', column: 'screen_name' },
  hashtag: { table: 'post_hashtags', column: 'tag' },
  cashtag: { table: 'post_symbols', column: 'symbol' },
} as const;

function chooseDriver(conjuncts: readonly QueryNode[], users: UserResolver): DriverPick | null {
  for (const op of DRIVER_ORDER) {
    for (const node of conjuncts) {
      if (node.kind !== 'operator' || node.op !== op) continue;
      const v = node.value;
      // INDEXED BY: the driver is chosen here, on purpose; with ANALYZE statistics SQLite would
      // otherwise prefer walking the primary key for ORDER BY id, which is a full scan for a
      // small conversation or a quiet account in a large corpus.
      const posts = (index: string) => ({ from: `posts AS p INDEXED BY ${index}`, bareFrom: null, idColumn: 'p.id' });
      if (op === 'conversation_id' && v.type === 'id') {
        return { node, plan: { driver: 'conversation', ...posts('posts_conversation_id'), driverWhere: { sql: 'p.conversation_id = ?', params: [v.id] } } };
      }
      if (op === 'quoted_tweet_id' && v.type === 'id') {
        return { node, plan: { driver: 'quoted', ...posts('posts_quoted'), driverWhere: { sql: 'p.quoted_status_id = ?', params: [v.id] } } };
      }
      if (op === 'from' && v.type === 'name') {
        // One author walks the (user_id, id DESC) timeline index in order; several need a sort.
        const ids = users(v.name, 'public');
        if (ids.length === 1) {
          return { node, plan: { driver: 'from', ...posts('posts_user_timeline'), driverWhere: { sql: 'p.user_id = ?', params: [ids[0]] } } };
        }
        continue;
      }
      if ((op === 'mention' || op === 'hashtag' || op === 'cashtag') && v.type === 'name') {
        const e = ENTITY[op];
        return {
          node,
          plan: {
            driver: op,
            from: `${e.table} AS d CROSS JOIN posts AS p ON p.id = d.post_id`,
            bareFrom: `${e.table} AS d`,
            idColumn: 'd.post_id',
            driverWhere: { sql: `d.${e.column} = ?`, params: [v.name] },
          },
        };
      }
    }
  }
  return null;
}

function ftsPredicate(expr: string): Sql {
  return { sql: 'EXISTS (SELECT 1 FROM posts_fts WHERE posts_fts MATCH ? AND posts_fts.rowid = p.id)', params: [expr] };
}

/** Parts joined by AND or OR, with the constants folded (`0 AND x` is 0, `1 OR x` is 1). */
function joinSql(all: Sql[], op: 'AND' | 'OR', empty: string): Sql {
  const absorbing = op === 'AND' ? FALSE : TRUE;
  if (all.some((p) => p.sql === absorbing)) return { sql: absorbing, params: [] };
  const parts = all.filter((p) => p.sql !== (op === 'AND' ? TRUE : FALSE));
  if (parts.length === 0) return { sql: all.length === 0 ? empty : op === 'AND' ? TRUE : FALSE, params: [] };
  if (parts.length === 1) return parts[0]!;
  return { sql: `(${parts.map((p) => p.sql).join(` ${op} `)})`, params: parts.flatMap((p) => p.params) };
}

// Every predicate is true or false, never NULL, so a negation of it is exact: `-to:bob` keeps
// posts that are not replies at all (a plain `=` on a NULL column would drop them).
function predicate(node: QueryNode, users: UserResolver): Sql {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return ftsPredicate(ftsExpression(node)!);
    case 'not': {
      const child = predicate(node.child, users);
      if (child.sql === FALSE || child.sql === TRUE) return { sql: child.sql === FALSE ? TRUE : FALSE, params: [] };
      return { sql: `NOT ${wrap(child.sql)}`, params: child.params };
    }
    case 'and':
    case 'or': {
      const fts = ftsExpression(node);
      if (fts !== null) return ftsPredicate(fts);
      return joinSql(
        node.children.map((c) => predicate(c, users)),
        node.kind === 'and' ? 'AND' : 'OR',
        '1',
      );
    }
    case 'operator':
      return operatorPredicate(node, users);
  }
}

const wrap = (sql: string) => (sql.startsWith('(') || /^\w+$/.test(sql) ? sql : `(${sql})`);

function operatorPredicate(node: OperatorNode, users: UserResolver): Sql {
  const v = node.value;
  switch (node.op) {
    case 'from': {
      // A protected account's posts never match: `from:` names only public authors, so it does not
      // walk a protected account's posts to drop each one.
      const ids = v.type === 'name' ? users(v.name, 'public') : [];
      if (ids.length === 0) return { sql: '0', params: [] };
      return { sql: `p.user_id IN (${ids.map(() => '?').join(', ')})`, params: ids };
    }
    case 'to': {
      const name = v.type === 'name' ? v.name : '';
      const ids = users(name);
      const byName: Sql = { sql: 'p.in_reply_to_screen_name IS ? COLLATE NOCASE', params: [name] };
      if (ids.length === 0) return byName;
      return {
        sql: `(${byName.sql} OR coalesce(p.in_reply_to_user_id IN (${ids.map(() => '?').join(', ')}), 0))`,
        params: [...byName.params, ...ids],
      };
    }
    case 'mention':
    case 'hashtag':
    case 'cashtag': {
      const e = ENTITY[node.op];
      return { sql: `EXISTS (SELECT 1 FROM ${e.table} AS e WHERE e.${e.column} = ? AND e.post_id = p.id)`, params: [nameOf(v)] };
    }
    case 'url':
      return { sql: `EXISTS (SELECT 1 FROM post_urls AS e WHERE e.post_id = p.id AND ${URL_CONTAINS('e')})`, params: [nameOf(v)] };
    case 'conversation_id':
      return { sql: 'p.conversation_id = ?', params: [idOf(v)] };
    case 'since_id':
      return { sql: 'p.id > ?', params: [idOf(v)] };
    case 'max_id':
      return { sql: 'p.id <= ?', params: [idOf(v)] };
    case 'quoted_tweet_id':
      return { sql: 'p.quoted_status_id IS ?', params: [idOf(v)] };
    case 'since':
    case 'since_time':
      return { sql: 'p.created_at_us >= ?', params: [timeOf(v)] };
    case 'until':
    case 'until_time':
      return { sql: 'p.created_at_us < ?', params: [timeOf(v)] };
    case 'lang':
      return { sql: 'p.lang = ? COLLATE NOCASE', params: [nameOf(v)] };
    case 'min_faves':
      return { sql: 'p.favorite_count >= ?', params: [countOf(v)] };
    case 'min_retweets':
      return { sql: 'p.retweet_count >= ?', params: [countOf(v)] };
    case 'min_replies':
      return { sql: 'p.reply_count >= ?', params: [countOf(v)] };
    case 'filter':
      switch (v.type === 'filter' ? v.filter : 'replies') {
        case 'replies':
          return { sql: 'p.in_reply_to_status_id IS NOT NULL', params: [] };
        case 'quote':
          return { sql: '(p.is_quote_status = 1 OR p.quoted_status_id IS NOT NULL)', params: [] };
        case 'links':
          return { sql: 'p.has_links = 1', params: [] };
        case 'media':
          return { sql: 'p.has_media = 1', params: [] };
        case 'self_threads':
          // A reply to the author's own post: the platform's self-thread (a thread's later parts).
          return { sql: '(p.in_reply_to_status_id IS NOT NULL AND p.in_reply_to_user_id IS p.user_id)', params: [] };
      }
  }
}

const nameOf = (v: OperatorNode['value']) => (v.type === 'name' ? v.name : '');
const idOf = (v: OperatorNode['value']) => (v.type === 'id' ? v.id : -1n);
const timeOf = (v: OperatorNode['value']) => (v.type === 'time_us' ? v.us : 0);
const countOf = (v: OperatorNode['value']) => (v.type === 'count' ? v.n : 0);

/** 'public': only accounts that are not protected (`from:`); `to:` takes every account. */
type UserResolver = (screenNameLower: string, which?: 'all' | 'public') => bigint[];

const userStatements = new WeakMap<Db, Statement<unknown[]>>();

/** Screen name -> user ids, once per name per compile (BigInt, read with safeIntegers). */
function userResolver(db: Db): UserResolver {
  let stmt = userStatements.get(db);
  if (!stmt) {
    stmt = db.prepare<unknown[]>('SELECT id, protected FROM social_users WHERE screen_name_lower = ? ORDER BY id LIMIT ?').raw(true).safeIntegers(true);
    userStatements.set(db, stmt);
  }
  const users = stmt;
  const cache = new Map<string, { all: bigint[]; public: bigint[] }>();
  return (name, which = 'all') => {
    let ids = cache.get(name);
    if (!ids) {
      const rows = users.all(name, MAX_USERS_PER_NAME) as [id: bigint, isProtected: bigint][];
      ids = { all: rows.map((r) => r[0]), public: rows.filter((r) => r[1] === 0n).map((r) => r[0]) };
      cache.set(name, ids);
    }
    return ids[which];
  };
}
