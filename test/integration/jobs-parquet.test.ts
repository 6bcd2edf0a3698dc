import { DuckDBInstance } from '@duckdb/node-api';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../../src/main/engine/jobs/writers/columns';
import { apiKey } from '../fixtures/api-corpus';
import { unzipSingle } from '../fixtures/data-files';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { WORD, writeTypedCorpus } from '../fixtures/typed-corpus';
import { testEngine } from '../helpers/engine';
import { startServer, type TestServer } from '../helpers/http';
import { tempDir } from '../helpers/temp';

// output_format=parquet (issue 16): jobs over real HTTP and the runner's worker threads; each file
// fetched from its datafile_url, read back with DuckDB (a reader of its own here, not Skein's
// writer), and every value of every row compared with the JSON export of the same job: the JSON
// export is the faithful format, so the Parquet file must say exactly what it says, typed.

const json = (body: Record<string, unknown>): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function start(server: TestServer, key: string, path: string, body: Record<string, unknown>): Promise<number> {
  const res = await server.request(path, { method: 'POST', key, ...json(body) });
  expect(res.status, res.text).toBe(200);
  return (res.json() as { job_id: number }).job_id;
}

async function file(server: TestServer, key: string, jobId: number): Promise<{ data: Buffer; type: string | null; rows: number }> {
  const body = (await server.request(`/jobs/${jobId}`, { key })).json() as { status: string; message?: string; result: { datafile_url: string; is_compressed: boolean; rows: number } };
  expect(body.status, body.message).toBe('success');
  const res = await fetch(body.result.datafile_url);
  expect(res.status).toBe(200);
  const buf = Buffer.from(await res.arrayBuffer());
  return { data: body.result.is_compressed ? (await unzipSingle(buf)).data : buf, type: res.headers.get('content-type'), rows: body.result.rows };
}

interface ParquetRead {
  types: Record<string, string>;
  rows: Record<string, unknown>[];
  schema: { name: string; type: string | null; logical_type: string | null; converted_type: string | null }[];
}

/** The file's columns and rows as DuckDB reads them; timestamps also as microseconds since 1970. */
async function readParquet(data: Buffer): Promise<ParquetRead> {
  const path = join(tempDir(), 'read.parquet');
  writeFileSync(path, data);
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const lit = `'${path}'`;
    const types = Object.fromEntries(
      (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${lit})`)).getRowObjectsJS().map((r) => [r.column_name as string, r.column_type as string]),
    );
    const rows = (
      await c.runAndReadAll(`SELECT *, epoch_us(tweet_created_at) AS tweet_created_us, epoch_us(user_created_at) AS user_created_us FROM read_parquet(${lit})`)
    ).getRowObjectsJS();
    const schema = (await c.runAndReadAll(`SELECT name, type, logical_type, converted_type FROM parquet_schema(${lit})`)).getRowObjectsJS() as unknown as ParquetRead['schema'];
    return { types, rows, schema };
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** An ISO 8601 UTC time with microseconds, as the JSON export writes it, in microseconds since 1970. */
function isoToMicros(iso: string): bigint {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z$/.exec(iso);
  if (!m) throw new Error(`not a timestamp: ${iso}`);
  return BigInt(Date.parse(`${m[1]}Z`)) * 1000n + BigInt(m[2]!);
}

type Tweet = Record<string, unknown> & { user: Record<string, unknown>; entities: Record<string, unknown> };

/** docs/api.md 8.3: entity lists joined with one space (tags without #, names without @, expanded URLs). */
function joined(list: unknown, pick: (e: Record<string, unknown>) => unknown): string {
  if (!Array.isArray(list)) return '';
  return list
    .map((e: unknown) => (typeof e === 'string' ? e : e && typeof e === 'object' ? pick(e as Record<string, unknown>) : undefined))
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .join(' ');
}

/** What each Parquet column must hold for a post of the JSON export (null where the JSON has null). */
function expectedRow(t: Tweet): Record<string, unknown> {
  const u = t.user;
  const big = (v: unknown) => BigInt(v as number);
  return {
    id_str: t.id_str,
    tweet_created_us: isoToMicros(t.tweet_created_at as string),
    full_text: t.full_text,
    lang: t.lang,
    source: t.source,
    user_id_str: u.id_str,
    user_screen_name: u.screen_name,
    user_name: u.name,
    user_verified: u.verified,
    user_protected: u.protected,
    user_followers_count: big(u.followers_count),
    user_friends_count: big(u.friends_count),
    user_statuses_count: big(u.statuses_count),
    user_created_us: isoToMicros(u.created_at as string),
    user_location: u.location,
    user_description: u.description,
    in_reply_to_status_id_str: t.in_reply_to_status_id_str,
    in_reply_to_user_id_str: t.in_reply_to_user_id_str,
    in_reply_to_screen_name: t.in_reply_to_screen_name,
    is_quote_status: t.is_quote_status,
    quoted_status_id_str: t.quoted_status_id_str,
    reply_count: big(t.reply_count),
    retweet_count: big(t.retweet_count),
    quote_count: big(t.quote_count),
    favorite_count: big(t.favorite_count),
    views_count: big(t.views_count),
    bookmark_count: big(t.bookmark_count),
    hashtags: joined(t.entities.hashtags, (e) => e.text ?? e.tag),
    symbols: joined(t.entities.symbols, (e) => e.text),
    user_mentions: joined(t.entities.user_mentions, (e) => e.screen_name),
    urls: joined(t.entities.urls, (e) => e.expanded_url ?? e.url),
    wallet_address: 'wallet_address' in t ? t.wallet_address : null,
  };
}

const EXPECTED_TYPES: Record<string, string> = Object.fromEntries(
  COLUMNS.map((c) => [c.name, c.name === 'reply_depth' ? 'INTEGER' : { id: 'VARCHAR', text: 'VARCHAR', int: 'BIGINT', bool: 'BOOLEAN', time: 'TIMESTAMP WITH TIME ZONE' }[c.kind]]),
);

describe('output_format=parquet: typed columns, every value as the JSON export has it', () => {
  it('10,000 rows of a search job: the CSV columns, typed, each value equal to the JSON export', { timeout: 300_000 }, async () => {
    const engine = testEngine();
    writeTypedCorpus(engine.db, 10_000);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine);
    const query = { query: WORD, max_count: 10_000 };
    const ids = { json: await start(server, key, '/social/search/asyncJob', { ...query, output_format: 'json' }), parquet: await start(server, key, '/social/search/asyncJob', { ...query, output_format: 'parquet' }) };
    await runner.idle();
    const exported = JSON.parse((await file(server, key, ids.json)).data.toString('utf8')) as Tweet[];
    const pq = await file(server, key, ids.parquet);
    expect(pq.type).toBe('application/vnd.apache.parquet');
    expect(pq.data.subarray(0, 4).toString()).toBe('PAR1');
    expect(exported).toHaveLength(10_000);
    expect(pq.rows).toBe(10_000);

    const { types, rows, schema } = await readParquet(pq.data);
    // The CSV's columns, in its order, each typed.
    expect(Object.keys(types)).toEqual(COLUMNS.map((c) => c.name));
    expect(types).toEqual(EXPECTED_TYPES);
    // What pandas, Polars and R's arrow see: timestamps adjusted to UTC in microseconds, text as UTF-8 strings.
    const field = (name: string) => schema.find((s) => s.name === name)!;
    expect(field('tweet_created_at').logical_type).toMatch(/^TimestampType\(isAdjustedToUTC=1, unit=TimeUnit\(.*MICROS=MicroSeconds\(\)/);
    expect(field('id_str')).toMatchObject({ type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    expect(field('favorite_count')).toMatchObject({ type: 'INT64' });

    // Every value of every row, in the export's order.
    expect(rows).toHaveLength(exported.length);
    const depth = new Map(
      (engine.db.prepare('SELECT id, conversation_id, reply_depth FROM posts').safeIntegers(true).all() as { id: bigint; conversation_id: bigint; reply_depth: bigint }[]).map((p) => [
        p.id.toString(),
        { conversation_id_str: p.conversation_id.toString(), reply_depth: Number(p.reply_depth) },
      ]),
    );
    let texts = 0;
    rows.forEach((row, i) => {
      const t = exported[i]!;
      const { tweet_created_at: _t, user_created_at: _u, ...values } = row;
      expect(values, `row ${i} (${String(t.id_str)})`).toEqual({ ...expectedRow(t), ...depth.get(t.id_str as string) });
      if (/^[=+\-@\t]/.test(t.full_text as string)) texts += 1;
    });
    // The file held what a guard or a trim would change, and it came back unchanged.
    expect(texts).toBeGreaterThan(1000);
    expect(rows.some((r) => (r.full_text as string).includes('\u0000'))).toBe(true);
    expect(rows.some((r) => (r.full_text as string).length > 20_000)).toBe(true);
    expect(rows.some((r) => r.in_reply_to_status_id_str === null) && rows.some((r) => typeof r.in_reply_to_status_id_str === 'string')).toBe(true);
    expect(rows.some((r) => (r.user_created_us as bigint) < 0n)).toBe(true);
    expect(rows.some((r) => (r.views_count as bigint) > 2n ** 32n)).toBe(true);
    expect(rows.every((r) => r.wallet_address === null)).toBe(true);
  });

  it('a reply job: wallet_address as in the JSON export, and zipped the same file', { timeout: 120_000 }, async () => {
    const engine = testEngine();
    writeConversation(engine.db, 12, 4);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { batchRows: 5 });
    const path = `/social/tweets/${ROOT_ID}/comments/asyncJob`;
    const ids = {
      json: await start(server, key, path, { output_format: 'json' }),
      parquet: await start(server, key, path, { output_format: 'PARQUET' }),
      zipped: await start(server, key, path, { output_format: 'parquet', compress: true }),
    };
    await runner.idle();
    const exported = JSON.parse((await file(server, key, ids.json)).data.toString('utf8')) as Tweet[];
    const plain = await file(server, key, ids.parquet);
    const { rows } = await readParquet(plain.data);
    expect(rows.map((r) => r.id_str)).toEqual(exported.map((t) => t.id_str));
    expect(rows.map((r) => r.wallet_address)).toEqual(exported.map((t) => t.wallet_address));
    expect(rows.some((r) => r.wallet_address === '')).toBe(true);
    expect(rows.some((r) => typeof r.wallet_address === 'string' && (r.wallet_address as string).length >= 25)).toBe(true);
    rows.forEach((row, i) => {
      const t = exported[i]!;
      for (const k of ['full_text', 'user_name', 'in_reply_to_screen_name', 'hashtags', 'urls'] as const) expect(row[k], k).toEqual(expectedRow(t)[k]);
    });
    const zipped = await file(server, key, ids.zipped);
    expect((await readParquet(zipped.data)).rows).toEqual(rows);
  });
});
