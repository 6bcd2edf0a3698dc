import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Db } from '../../store/db';
import { GEXF_SLICE_US, type GexfSlice } from '../params';

// The network of a job's rows, built by SQLite in a scratch database attached to the job's
// connection (a file of the job's own in exports/.partial, written without a journal and deleted
// with the job's other files): grouped SQL, never a JS loop over the interactions.
//
// - job_posts: the ids of the rows the job wrote (its staged file, one id a line).
// - links: one row per interaction in those posts: author -> the account it replied to, each
//   account it mentioned (a post naming the same account twice counts once; a reply's mention of
//   the account it replies to is that reply, and a retweet's "RT @name" that retweet, not a
//   mention too), the author of the post it quoted, the author of the post it retweeted. Its
//   time is the post's. An account is keyed by
//   its id as text; a mentioned account whose id the mention lacks and the corpus does not know
//   by its screen name is keyed '@' + its screen name in lower case. An interaction whose other
//   account is not known at all (a quoted post not in the corpus and not embedded) is left out.
// - edges: links grouped by (source, target, kind): count (the weight), first and last time.
// - slices: with gexf_dynamic, the count of each edge in each hour, day or week (UTC).
// - nodes: every author of a row and every target, with the rows each wrote and the screen
//   name and name that the interactions name a target by (for accounts not in the corpus).

/**
 * The scratch database's schema name: one per job, since the inline runner (tests) runs jobs on
 * one shared connection, where two GEXF jobs finishing together must not meet.
 */
export const scratchSchema = (jobId: number): string => `gexf_job${Math.floor(jobId)}`;

/** A text id if the value is one: digits only. */
const digits = (x: string): string => `(CASE WHEN CAST(${x} AS TEXT) <> '' AND CAST(${x} AS TEXT) NOT GLOB '*[^0-9]*' THEN CAST(${x} AS TEXT) END)`;
/** Stored JSON that SQLite can read, else NULL (a damaged blob leaves its links out, not the job). */
const valid = (col: string): string => `(CASE WHEN json_valid(${col}) THEN ${col} END)`;

type Kind = 'reply' | 'mention' | 'quote' | 'retweet';
export const EDGE_KINDS: readonly Kind[] = ['reply', 'mention', 'quote', 'retweet'];

function linksSql(schema: string): Record<Kind, string> {
  const FROM_ROWS = `FROM ${schema}.job_posts j JOIN main.posts p ON p.id = j.id`;
  return {
  reply: `
    SELECT CAST(p.user_id AS TEXT), CAST(p.in_reply_to_user_id AS TEXT), 'reply', p.created_at_us, p.in_reply_to_screen_name, NULL
    ${FROM_ROWS} WHERE p.in_reply_to_user_id IS NOT NULL`,
  // A mention is an object (screen_name, name, id_str) or, from some sources, the screen name alone.
  mention: `
    SELECT src, tgt, 'mention', at_us, max(sn), max(nm) FROM (
      SELECT pid, src, at_us, reply_to, rt_to, sn, nm,
        COALESCE(${digits('id_str')}, ${digits('id')},
          (SELECT CAST(u.id AS TEXT) FROM main.social_users u WHERE u.screen_name_lower = lower(sn) ORDER BY u.incomplete, u.retrieved_at_ms DESC LIMIT 1),
          CASE WHEN sn <> '' THEN '@' || lower(sn) END) AS tgt
      FROM (
        SELECT p.id AS pid, CAST(p.user_id AS TEXT) AS src, p.created_at_us AS at_us, p.in_reply_to_user_id AS reply_to,
          COALESCE(${digits(`${valid('p.retweeted_status_json')} ->> '$.user.id_str'`)}, ${digits(`${valid('p.retweeted_status_json')} ->> '$.user.id'`)}) AS rt_to,
          CASE m.type WHEN 'object' THEN m.value ->> '$.screen_name' WHEN 'text' THEN m.value END AS sn,
          CASE m.type WHEN 'object' THEN m.value ->> '$.name' END AS nm,
          CASE m.type WHEN 'object' THEN m.value ->> '$.id_str' END AS id_str,
          CASE m.type WHEN 'object' THEN m.value ->> '$.id' END AS id
        ${FROM_ROWS}, json_each(COALESCE(${valid('p.entities_json')}, '{}'), '$.user_mentions') m
      )
    ) WHERE tgt IS NOT NULL AND (reply_to IS NULL OR tgt <> CAST(reply_to AS TEXT)) AND (rt_to IS NULL OR tgt <> rt_to)
    GROUP BY pid, tgt`,
  quote: `
    SELECT src, tgt, 'quote', at_us, sn, nm FROM (
      SELECT CAST(p.user_id AS TEXT) AS src, p.created_at_us AS at_us,
        COALESCE(CAST(q.user_id AS TEXT), ${digits("qj ->> '$.user.id_str'")}, ${digits("qj ->> '$.user.id'")}) AS tgt,
        qj ->> '$.user.screen_name' AS sn, qj ->> '$.user.name' AS nm
      FROM (SELECT p.*, ${valid('p.quoted_status_json')} AS qj ${FROM_ROWS}
            WHERE p.quoted_status_id IS NOT NULL OR p.quoted_status_json IS NOT NULL) p
      LEFT JOIN main.posts q ON q.id = p.quoted_status_id
    ) WHERE tgt IS NOT NULL`,
  retweet: `
    SELECT src, tgt, 'retweet', at_us, sn, nm FROM (
      SELECT CAST(p.user_id AS TEXT) AS src, p.created_at_us AS at_us,
        COALESCE(${digits("rj ->> '$.user.id_str'")}, ${digits("rj ->> '$.user.id'")},
          (SELECT CAST(r.user_id AS TEXT) FROM main.posts r WHERE r.id = CAST(COALESCE(${digits("rj ->> '$.id_str'")}, ${digits("rj ->> '$.id'")}) AS INTEGER))) AS tgt,
        rj ->> '$.user.screen_name' AS sn, rj ->> '$.user.name' AS nm
      FROM (SELECT p.*, ${valid('p.retweeted_status_json')} AS rj ${FROM_ROWS} WHERE p.retweeted_status_json IS NOT NULL) p
    ) WHERE tgt IS NOT NULL`,
  };
}

/** 1970-01-05 was a Monday: week slices start on Mondays at 00:00 UTC. */
const MONDAY_US = 4 * 86_400_000_000;

/** Attaches a fresh scratch database (any leftover of an earlier attempt is replaced by the caller). */
export function attachScratch(db: Db, schema: string, path: string): void {
  try {
    db.exec(`DETACH DATABASE ${schema}`);
  } catch {
    // not attached: the usual case
  }
  db.prepare(`ATTACH DATABASE ? AS ${schema}`).run(path);
  // A scratch file rebuilt from the staged ids whenever it is needed: no journal, no syncs.
  db.exec(`PRAGMA ${schema}.journal_mode = OFF; PRAGMA ${schema}.synchronous = OFF;`);
}

export function detachScratch(db: Db, schema: string): void {
  db.exec(`DETACH DATABASE ${schema}`);
}

const ID_BATCH = 1000;

/** Loads the staged post ids (one a line), 1,000 a statement. */
async function loadPostIds(db: Db, schema: string, stagedPath: string): Promise<void> {
  db.exec(`CREATE TABLE ${schema}.job_posts (id INTEGER PRIMARY KEY)`);
  // json_each keeps 19-digit ids exact when they are written as bare digits.
  const insert = db.prepare(`INSERT OR IGNORE INTO ${schema}.job_posts (id) SELECT value FROM json_each(?)`);
  let batch: string[] = [];
  const lines = createInterface({ input: createReadStream(stagedPath, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!/^\d{1,19}$/.test(line)) continue;
    batch.push(line);
    if (batch.length === ID_BATCH) {
      insert.run(`[${batch.join(',')}]`);
      batch = [];
    }
  }
  if (batch.length) insert.run(`[${batch.join(',')}]`);
}

/** Builds every table of the graph from the staged ids. */
export async function buildGraph(db: Db, schema: string, stagedPath: string, slice: GexfSlice | null): Promise<void> {
  await loadPostIds(db, schema, stagedPath);
  const LINKS = linksSql(schema);
  const FROM_ROWS = `FROM ${schema}.job_posts j JOIN main.posts p ON p.id = j.id`;
  db.exec(`CREATE TABLE ${schema}.links (source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL, at_us INTEGER NOT NULL, target_sn TEXT, target_name TEXT)`);
  for (const kind of EDGE_KINDS) db.exec(`INSERT INTO ${schema}.links (source, target, kind, at_us, target_sn, target_name) ${LINKS[kind]}`);
  db.exec(`
    CREATE TABLE ${schema}.edges (id INTEGER PRIMARY KEY, source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL,
      weight INTEGER NOT NULL, first_us INTEGER NOT NULL, last_us INTEGER NOT NULL);
    INSERT INTO ${schema}.edges (source, target, kind, weight, first_us, last_us)
      SELECT source, target, kind, count(*), min(at_us), max(at_us) FROM ${schema}.links GROUP BY source, target, kind ORDER BY source, target, kind;
    CREATE UNIQUE INDEX ${schema}.edges_key ON edges (source, target, kind);
    CREATE TABLE ${schema}.nodes (key TEXT PRIMARY KEY, posts INTEGER NOT NULL, hint_sn TEXT, hint_name TEXT);
    INSERT INTO ${schema}.nodes (key, posts) SELECT CAST(p.user_id AS TEXT), count(*) ${FROM_ROWS} GROUP BY p.user_id;
    INSERT INTO ${schema}.nodes (key, posts, hint_sn, hint_name)
      SELECT target, 0, max(target_sn), max(target_name) FROM ${schema}.links WHERE true GROUP BY target
      ON CONFLICT (key) DO UPDATE SET hint_sn = excluded.hint_sn, hint_name = excluded.hint_name;
  `);
  if (slice) {
    // Slice start = at_us rounded down to a multiple of the slice (weeks counted from a Monday);
    // the double modulo rounds times before 1970 down as well.
    const w = GEXF_SLICE_US[slice];
    const off = slice === 'week' ? MONDAY_US : 0;
    db.exec(`
      CREATE TABLE ${schema}.slices (edge INTEGER NOT NULL, slice_us INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (edge, slice_us));
      INSERT INTO ${schema}.slices (edge, slice_us, n)
        SELECT e.id, l.slice_us, count(*) FROM
          (SELECT source, target, kind, at_us - ((((at_us - ${off}) % ${w}) + ${w}) % ${w}) AS slice_us FROM ${schema}.links) l
          JOIN ${schema}.edges e ON e.source = l.source AND e.target = l.target AND e.kind = l.kind
        GROUP BY e.id, l.slice_us;
    `);
  }
}

export interface NodeRow {
  key: string;
  posts: number;
  hint_sn: string | null;
  hint_name: string | null;
  screen_name: string | null;
  name: string | null;
  followers_count: number | null;
  statuses_count: number | null;
  incomplete: number | null;
}

export function countsOf(db: Db, schema: string): { nodes: number; edges: number; posts: number } {
  const n = (table: string): number => (db.prepare(`SELECT count(*) AS n FROM ${schema}.${table}`).get() as { n: number }).n;
  return { nodes: n('nodes'), edges: n('edges'), posts: n('job_posts') };
}

/** The nodes with what the corpus knows of each (social_users, by id), in key order. */
export function nodeRows(db: Db, schema: string): IterableIterator<NodeRow> {
  return db
    .prepare(
      `SELECT n.key, n.posts, n.hint_sn, n.hint_name, u.screen_name, u.name, u.followers_count, u.statuses_count, u.incomplete
       FROM ${schema}.nodes n LEFT JOIN main.social_users u ON u.id = (CASE WHEN n.key NOT GLOB '@*' THEN CAST(n.key AS INTEGER) END)
       ORDER BY n.key`,
    )
    .iterate() as IterableIterator<NodeRow>;
}

export interface EdgeRow {
  id: number;
  source: string;
  target: string;
  kind: string;
  weight: number;
  first_us: bigint;
  last_us: bigint;
  /** With slices: one row per slice of the edge, in time order (slice_us null for none). */
  slice_us: bigint | null;
  n: number | null;
}

/**
 * The edges in id order; with slices, each edge once per slice in which it happened. Times are
 * read as BigInt (microseconds pass 2^53 in the year 2255); counts stay numbers.
 */
export function* edgeRows(db: Db, schema: string, sliced: boolean): Generator<EdgeRow> {
  const rows = db
    .prepare(
      sliced
        ? `SELECT e.id, e.source, e.target, e.kind, e.weight, e.first_us, e.last_us, s.slice_us, s.n
           FROM ${schema}.edges e JOIN ${schema}.slices s ON s.edge = e.id ORDER BY e.id, s.slice_us`
        : `SELECT e.id, e.source, e.target, e.kind, e.weight, e.first_us, e.last_us, NULL AS slice_us, NULL AS n FROM ${schema}.edges e ORDER BY e.id`,
    )
    .safeIntegers(true)
    .iterate() as IterableIterator<Record<keyof EdgeRow, unknown>>;
  for (const r of rows) {
    yield {
      id: Number(r.id),
      source: r.source as string,
      target: r.target as string,
      kind: r.kind as string,
      weight: Number(r.weight),
      first_us: r.first_us as bigint,
      last_us: r.last_us as bigint,
      slice_us: r.slice_us as bigint | null,
      n: r.n === null ? null : Number(r.n),
    };
  }
}
