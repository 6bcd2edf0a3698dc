import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { type Bench, sideBySide, throughput, withPeakRss } from './lib';
import { ManualClock } from '../src/main/engine/clock';
import { createEngine, type Engine } from '../src/main/engine/engine';
import { SeededIds } from '../src/main/engine/ids';
import { createKey } from '../src/main/engine/keys';
import { grant } from '../src/main/engine/ledger';
import { parseRepliesJob, startJobRunner, submitJob } from '../src/main/engine/jobs';
import type { OutputFormat } from '../src/main/engine/jobs/job-row';
import { claimNextJob } from '../src/main/engine/jobs/queue/claim';
import { runnerOwner } from '../src/main/engine/jobs/queue/recover';
import { runJob } from '../src/main/engine/jobs/run-job';
import { TWEET_ROW_COLUMNS, type TweetRow } from '../src/main/engine/jobs/tweet-row';
import { detailTweetJson } from '../src/main/engine/serialize/tweet-json';
import { COLUMNS, flattenTweet, type Cell } from '../src/main/engine/jobs/writers/columns';
import { DRAIN_EVERY_ROWS, drainXlsxSheet, EXCEL_MAX_ROWS } from '../src/main/engine/jobs/writers/xlsx';
import { PARQUET_TYPES, parquetRowJson } from '../src/main/engine/jobs/writers/parquet';
import { loadDuckDb, sqlPath } from '../src/main/engine/jobs/writers/duckdb-lazy';
import { startWalCheckpointer } from '../src/main/engine/store/wal-checkpointer';
import { walCheckpointerWanted, walFileBytes } from './wal';
import { gcPauses, IDLE_SAMPLE, WARM_UP, latencyResult, latencyServers, pooledIdle, prefixed, walSettled } from './latency';

// Exports (issues 6, 16 and 17). Rows/s of a whole Skein reply job (search pages, staging, fsync
// per batch, checkpoint and charge per batch, final file) against the same writer library writing
// the same rows outside Skein, as a short script would: one SELECT of the same store streamed into
// csv-stringify (CSV), hand-built JSON text (JSON), exceljs's streaming WorkbookWriter (XLSX) or
// DuckDB's appender followed by DuckDB's own COPY ... TO (FORMAT parquet) (Parquet). Target: at
// least 70%. Full mode measures at 1,000,000 rows; SKEIN_BENCH_EXPORT_10M=1 adds 10,000,000 (the
// corpus alone takes many minutes to build and the JSON file is ~11 GB). Peak memory of the job at
// two sizes (target: flat), and the API's p99 latency while a big export runs in its worker thread.

/** Opt-in: the throughput and memory benches also run at ten million rows. */
const EXPORT_10M = process.env.SKEIN_BENCH_EXPORT_10M === '1';

const ROOT = 1_900_000_000_000_000_000n;

/** A conversation of `n` direct replies written with plain SQL (the bench needs it fast, not validated). */
export function corpus(dir: string, n: number): Engine {
  const engine = createEngine({ dataDir: dir, clock: new ManualClock(Date.UTC(2026, 0, 1)), ids: new SeededIds('bench') });
  const db = engine.db;
  db.transaction(() => {
    db.prepare(`INSERT INTO social_users (id, screen_name, screen_name_lower, name, created_at_us, retrieved_at_ms) VALUES (?, 'bench', 'bench', 'Bench User', 1600000000000000, 1)`).run(9_200_000_000_000_000_001n);
    const post = db.prepare(
      `INSERT INTO posts (id, user_id, created_at_us, full_text, in_reply_to_status_id, in_reply_to_user_id, conversation_id, reply_depth, reply_count, favorite_count, entities_json, retrieved_at_ms)
       VALUES (?, 9200000000000000001, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
    );
    post.run(ROOT, 1_700_000_000_000_000n, 'root post', null, null, ROOT, 0, n, 0, '{"user_mentions":[],"urls":[],"hashtags":[],"symbols":[]}');
    for (let i = 1; i <= n; i++) {
      const text = `reply number ${i}, with "quotes" and a wallet 0x${(i * 7919).toString(16).padStart(40, 'a')} #tag${i % 10}`;
      post.run(ROOT + BigInt(i), 1_700_000_000_000_000n + BigInt(i) * 1_000_000n, text, ROOT, 9_200_000_000_000_000_001n, ROOT, 1, 0, i % 50,
        `{"user_mentions":[],"urls":[],"hashtags":[{"text":"tag${i % 10}","indices":[0,1]}],"symbols":[]}`);
    }
  })();
  const { user } = createKey(engine, 'bench');
  grant(db, { transferId: 'bench:grant', userId: user.id, amount: 100_000_000, nowMs: 0 });
  return engine;
}

/**
 * One corpus per size for the whole run: the throughput and memory benches of every format share
 * it (a million rows take minutes to build on 2 loaded cores). Removed when the process exits.
 */
const corpora = new Map<number, Engine>();
function sharedCorpus(rows: number): Engine {
  let engine = corpora.get(rows);
  if (!engine) {
    const dir = mkdtempSync(join(tmpdir(), 'skein-bench-export-'));
    const built = corpus(join(dir, 'data'), rows);
    engine = built;
    corpora.set(rows, built);
    process.once('exit', () => {
      built.close();
      rmSync(dir, { recursive: true, force: true });
    });
  }
  return engine;
}

/** The data files of finished jobs (a million rows of JSON is a gigabyte): removed after each run. */
function removeDataFiles(engine: Engine): void {
  const dir = join(engine.dataDir, 'exports');
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isFile()) rmSync(join(dir, e.name), { force: true });
}

let jobSeq = 0;
/**
 * One whole reply job, inline on this thread (the worker thread runs the same runJob).
 * `recordPosts: false` runs it as a job created before migration 066 (no job_posts rows).
 */
export async function skeinExport(engine: Engine, format: OutputFormat, rows: number, opts: { recordPosts?: boolean; batchRows?: number } = {}): Promise<number> {
  const { recordPosts = true, batchRows } = opts;
  const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'bench'`).get() as { id: number }).id;
  const parsed = parseRepliesJob(engine.db, String(ROOT), { output_format: format, max_count: rows });
  const jobId = submitJob(engine, userId, 'replies', parsed);
  if (!recordPosts) engine.db.prepare('UPDATE jobs SET records_posts = 0 WHERE id = ?').run(jobId);
  const worker = `${runnerOwner(`b${jobSeq++}`)}:0`;
  const job = claimNextJob(engine.db, worker, engine.clock.nowMs())!;
  const outcome = await runJob({ db: engine.db, dataDir: engine.dataDir, clock: engine.clock, ids: engine.ids, workerId: worker, ...(batchRows ? { batchRows } : {}) }, job);
  if (outcome !== 'success') throw new Error(`export ended in ${outcome}`);
  removeDataFiles(engine);
  return rows;
}

/**
 * The baseline: the same export as a short script would do it outside Skein: one plain SELECT of
 * the same rows from the same store, streamed into the writer library, no batches, no fsync, no
 * checkpoint, no ledger.
 */
function* storeRows(engine: Engine, rows: number): Generator<TweetRow> {
  const stmt = engine.db
    .prepare(`SELECT ${TWEET_ROW_COLUMNS} FROM posts p JOIN social_users u ON u.id = p.user_id WHERE p.conversation_id = ? AND p.reply_depth = 1 ORDER BY p.id DESC LIMIT ?`)
    .safeIntegers(true);
  yield* stmt.iterate(ROOT, rows) as IterableIterator<TweetRow>;
}

export async function baselineWrite(format: OutputFormat, engine: Engine, rows: number, file: string): Promise<number> {
  try {
    return await writeBaseline(format, engine, rows, file);
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * Parquet as a short script makes it with DuckDB: the same SELECT's rows appended to a DuckDB
 * table typed like Skein's file (writers/parquet.ts), then DuckDB's own COPY ... TO (FORMAT
 * parquet), one thread and 512 MB like Skein's, spilling beside the file. DuckDB here has no
 * SQLite scanner (not linked into @duckdb/node-api, and extensions are never downloaded), so the
 * rows reach it the way they reach every other baseline: through one SELECT in Node.
 */
async function duckDbBaseline(engine: Engine, rows: number, file: string): Promise<number> {
  const { DuckDBInstance, DuckDBTimestampTZValue } = await loadDuckDb();
  const spill = `${file}.tmp`;
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '512MB', temp_directory: spill });
  const c = await instance.connect();
  let n = 0;
  try {
    await c.run(`CREATE TABLE t (${PARQUET_TYPES.map(([name, type]) => `"${name}" ${type}`).join(', ')})`);
    const app = await c.createAppender('t');
    const kinds = COLUMNS.map((col) => (col.name === 'reply_depth' ? 'int32' : col.kind));
    for (const t of storeRows(engine, rows)) {
      const cells = flattenTweet(t, '');
      for (let i = 0; i < cells.length; i++) {
        const v = cells[i]!;
        switch (kinds[i]) {
          case 'time':
            app.appendTimestampTZ(new DuckDBTimestampTZValue(i === 1 ? t.created_at_us : t.u_created_at_us));
            break;
          case 'int':
            app.appendBigInt(BigInt(v as number));
            break;
          case 'int32':
            app.appendInteger(v as number);
            break;
          case 'bool':
            app.appendBoolean(v as boolean);
            break;
          case 'id':
            if (v === '') app.appendNull();
            else app.appendVarchar(v as string);
            break;
          default:
            app.appendVarchar(v as string);
        }
      }
      app.endRow();
      n++;
    }
    app.flushSync();
    app.closeSync();
    await c.run(`COPY t TO ${sqlPath(file)} (FORMAT parquet, COMPRESSION snappy)`);
  } finally {
    c.closeSync();
    instance.closeSync();
    rmSync(spill, { recursive: true, force: true });
  }
  return n;
}

/**
 * Parquet the other way a short script makes it with DuckDB: the same SELECT's rows written as
 * JSON Lines, then DuckDB's COPY (SELECT ... FROM read_json(...)) TO (FORMAT parquet) with the
 * column types given. Returns the rows/s of the whole and of the COPY alone.
 */
export async function duckDbFromJsonl(engine: Engine, rows: number, dir: string): Promise<{ whole: number; copyOnly: number }> {
  const started = performance.now();
  const jsonl = join(dir, 'rows.jsonl');
  const out = join(dir, 'copy.parquet');
  const fd = openSync(jsonl, 'w');
  let buf = '';
  for (const t of storeRows(engine, rows)) {
    buf += parquetRowJson(t, undefined) + '\n';
    if (buf.length > 1 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  const { DuckDBInstance } = await loadDuckDb();
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '512MB', temp_directory: join(dir, 'spill') });
  const c = await instance.connect();
  const columns = PARQUET_TYPES.map(([name, type]) => `${sqlPath(name)}: '${type}'`).join(', ');
  const copyStarted = performance.now();
  try {
    await c.run(`COPY (SELECT * FROM read_json(${sqlPath(jsonl)}, format = 'newline_delimited', columns = {${columns}})) TO ${sqlPath(out)} (FORMAT parquet, COMPRESSION snappy)`);
  } finally {
    c.closeSync();
    instance.closeSync();
    rmSync(jsonl, { force: true });
    rmSync(out, { force: true });
    rmSync(join(dir, 'spill'), { recursive: true, force: true });
  }
  const ended = performance.now();
  return { whole: rows / ((ended - started) / 1000), copyOnly: rows / ((ended - copyStarted) / 1000) };
}

async function writeBaseline(format: OutputFormat, engine: Engine, rows: number, file: string): Promise<number> {
  if (format === 'parquet') return duckDbBaseline(engine, rows, file);
  let n = 0;
  if (format === 'xlsx') {
    // What a script needs for a file Excel opens and a run that fits in memory: a new sheet at
    // Excel's row limit (one sheet of 10M rows is a file Excel refuses), and a wait for exceljs's
    // stream every DRAIN_EVERY_ROWS rows (without it, 14 GB of RSS on the way to 10M rows).
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
    let sheet: ExcelJS.Worksheet | undefined;
    let sheets = 0;
    let inSheet = 0;
    for (const t of storeRows(engine, rows)) {
      if (!sheet || inSheet === EXCEL_MAX_ROWS - 1) {
        sheet?.commit();
        sheet = wb.addWorksheet(`tweets ${++sheets}`);
        sheet.addRow(COLUMNS.map((c) => c.name)).commit();
        inSheet = 0;
      }
      sheet.addRow(flattenTweet(t, '')).commit();
      inSheet++;
      if (++n % DRAIN_EVERY_ROWS === 0) await drainXlsxSheet(sheet);
    }
    sheet?.commit();
    await wb.commit();
    return n;
  }
  const fd = openSync(file, 'w');
  try {
    if (format === 'csv') {
      writeSync(fd, '\uFEFF' + stringify([COLUMNS.map((c) => c.name)], { record_delimiter: 'windows' }));
      let batch: Cell[][] = [];
      const flush = () => {
        writeSync(fd, stringify(batch, { record_delimiter: 'windows', cast: { boolean: (b) => String(b) } }));
        batch = [];
      };
      for (const t of storeRows(engine, rows)) {
        batch.push(flattenTweet(t, ''));
        if (++n % 1000 === 0) flush();
      }
      if (batch.length) flush();
    } else {
      // JSON.stringify cannot print a 64-bit id exactly: the same hand-built text per row.
      writeSync(fd, '[');
      let buf = '';
      for (const t of storeRows(engine, rows)) {
        buf += (n++ ? ',\n' : '\n') + detailTweetJson(t);
        if (n % 1000 === 0) {
          writeSync(fd, buf);
          buf = '';
        }
      }
      writeSync(fd, buf + '\n]\n');
    }
  } finally {
    closeSync(fd);
  }
  return n;
}

const BASELINES: Partial<Record<OutputFormat, string>> = {
  json: 'one SELECT streamed into JSON text',
  csv: 'one SELECT streamed into csv-stringify',
  xlsx: 'one SELECT streamed into exceljs WorkbookWriter',
  parquet: "one SELECT appended into DuckDB, then DuckDB's COPY to Parquet",
};

function throughputBench(format: OutputFormat): Bench {
  return {
    name: `export ${format} rows/s`,
    unit: 'rows/s',
    higherIsBetter: true,
    target: 'ratio >= 0.7',
    baselineName: BASELINES[format]!,
    async run(ctx) {
      // Paired runs at each size; the largest size is the result, the others go in `extra`.
      const sizes = ctx.quick ? [8_000] : EXPORT_10M ? [1_000_000, 10_000_000] : [1_000_000];
      const extra: Record<string, number | string> = {};
      let last: Awaited<ReturnType<typeof sideBySide>> | undefined;
      for (const rows of sizes) {
        const engine = ctx.quick ? corpus(join(ctx.dir, 'data'), rows) : sharedCorpus(rows);
        try {
          last = await sideBySide(
            ctx.quick ? 2 : rows >= 10_000_000 ? 1 : 3,
            () => throughput(() => skeinExport(engine, format, rows)),
            (i) => throughput(() => baselineWrite(format, engine, rows, join(ctx.dir, `baseline-${i}.${format}`))),
          );
          extra[`ratio_${rows}`] = last.subject.median / last.baseline.median;
          extra[`pairs_${rows}`] = last.subject.values.map((v, i) => (v / last!.baseline.values[i]!).toFixed(2)).join(' ');
          if (format === 'parquet') {
            const j = await duckDbFromJsonl(engine, rows, ctx.dir);
            extra[`jsonl_then_copy_rows_s_${rows}`] = j.whole;
            extra[`copy_only_rows_s_${rows}`] = j.copyOnly;
          }
        } finally {
          if (ctx.quick) engine.close();
        }
      }
      return { ...last!, extra: { rows: sizes[sizes.length - 1]!, ...extra } };
    },
  };
}

/**
 * What recording a job's posts (job_posts, migration 066: one INSERT ... json_each per batch, in the
 * batch's transaction) costs a whole export: the same CSV job with and without it, interleaved.
 */
const jobPostsCost: Bench = {
  name: 'export csv rows/s with job_posts',
  unit: 'rows/s',
  higherIsBetter: true,
  target: 'ratio >= 0.95',
  baselineName: 'the same job without job_posts (a job from before migration 066)',
  async run(ctx) {
    const rows = ctx.quick ? 8_000 : 100_000;
    const engine = corpus(join(ctx.dir, 'data'), rows);
    try {
      const r = await sideBySide(
        ctx.quick ? 12 : 5,
        () => throughput(() => skeinExport(engine, 'csv', rows, { recordPosts: true })),
        () => throughput(() => skeinExport(engine, 'csv', rows, { recordPosts: false })),
      );
      const stored = engine.db.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name IN ('job_posts')").get() as { bytes: number | null } | undefined;
      const recorded = engine.db.prepare('SELECT count(*) AS n FROM job_posts').get() as { n: number };
      return { ...r, extra: { rows, job_posts_rows: recorded.n, ...(stored?.bytes ? { bytes_per_row: stored.bytes / recorded.n } : {}) } };
    } finally {
      engine.close();
    }
  },
};

function memoryBench(format: OutputFormat): Bench {
  return {
    name: `export ${format} peak memory`,
    unit: 'MiB (large run)',
    higherIsBetter: false,
    target: 'flat: large run within a few MiB of the small one',
    async run(ctx) {
      const small = ctx.quick ? 5_000 : EXPORT_10M ? 1_000_000 : 100_000;
      const large = ctx.quick ? 20_000 : EXPORT_10M ? 10_000_000 : 1_000_000;
      const engine = ctx.quick ? corpus(join(ctx.dir, 'data'), large) : sharedCorpus(large);
      try {
        // Each run's rows/s too: with SKEIN_BENCH_EXPORT_10M=1 this is the 10M rate of Skein's job
        // without the paired throughput bench's baseline beside it.
        const timed = async (rows: number) => {
          global.gc?.();
          const started = performance.now();
          const r = await withPeakRss(() => skeinExport(engine, format, rows));
          return { ...r, rowsPerS: rows / ((performance.now() - started) / 1000) };
        };
        const a = await timed(small);
        const b = await timed(large);
        ctx.log(`${format}: peak RSS ${a.peakRssMb.toFixed(0)} MiB at ${small} rows (${Math.round(a.rowsPerS)} rows/s), ${b.peakRssMb.toFixed(0)} MiB at ${large} rows (${Math.round(b.rowsPerS)} rows/s)`);
        return {
          subject: { median: b.peakRssMb, values: [b.peakRssMb], peakRssMb: b.peakRssMb },
          extra: {
            small_rows: small,
            small_peak_mb: Math.round(a.peakRssMb),
            small_rows_s: Math.round(a.rowsPerS),
            large_rows: large,
            large_peak_mb: Math.round(b.peakRssMb),
            large_rows_s: Math.round(b.rowsPerS),
          },
        };
      } finally {
        if (ctx.quick) engine.close();
      }
    },
  };
}

const apiLatency: Bench = {
  name: 'API p99 during an export',
  unit: 'ms (p99)',
  higherIsBetter: false,
  target: 'within 2x of the idle p99',
  baselineName: 'same requests, no export running',
  async run(ctx) {
    const rows = ctx.quick ? 10_000 : 1_000_000;
    const engine = corpus(join(ctx.dir, 'data'), rows);
    // The corpus went in as one transaction (a 640 MB WAL at 1M rows): into the database now, so
    // that copying it is not measured as the idle side.
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    // As `skein serve` runs: checkpoints on their own thread (SKEIN_BENCH_WAL=auto: as before issue 17).
    const wal = walCheckpointerWanted() ? startWalCheckpointer(engine) : null;
    const servers = await latencyServers(engine);
    const runner = startJobRunner(engine, { mode: 'thread' });
    const path = (i: number) => `/social/tweets/${ROOT + BigInt(1 + (i % rows))}`;
    try {
      const n = ctx.quick ? 300 : IDLE_SAMPLE;
      await servers.sample(WARM_UP, path);
      const idleBefore = await servers.sample(n, path);
      const userId = (engine.db.prepare(`SELECT id FROM api_users WHERE name = 'bench'`).get() as { id: number }).id;
      submitJob(engine, userId, 'replies', parseRepliesJob(engine.db, String(ROOT), { output_format: 'xlsx' }));
      const busy = { metered: [] as number[], unmetered: [] as number[] };
      const started = performance.now();
      // Sample from the job's start to its end. It stopped at 8,000 requests when the client ran on
      // the server's thread; in its own process that was the export's first 6 s of 60-70.
      const walBytes: number[] = [];
      const gc = gcPauses();
      const statusOf = () => (engine.db.prepare(`SELECT status FROM jobs ORDER BY id DESC LIMIT 1`).get() as { status: string }).status;
      let status = statusOf();
      while (status === 'pending' || status === 'processing') {
        await servers.sample(25, path, busy);
        walBytes.push(walFileBytes(engine.dbFile));
        status = statusOf();
      }
      const busyGc = gc.stop();
      if (status !== 'success') throw new Error(`the export job ended with ${status}`);
      ctx.log(`export of ${rows} rows ran ${((performance.now() - started) / 1000).toFixed(1)} s while sampling; ${busy.metered.length} requests of each kind; WAL ${wal ? 'checkpointer' : 'autocheckpoint'}`);
      await runner.idle();
      await walSettled(engine.dbFile);
      const idle = pooledIdle(idleBefore, await servers.sample(n, path));
      return latencyResult(idle, busy, { rows, wal: wal ? 'checkpointer' : 'autocheckpoint', wal_file_max_mb: Math.round(Math.max(0, ...walBytes) / 1e6), ...prefixed('busy_', busyGc) });
    } finally {
      await runner.stop();
      await servers.close();
      await wal?.stop();
      engine.close();
    }
  },
};

export default [
  throughputBench('csv'),
  throughputBench('json'),
  throughputBench('xlsx'),
  throughputBench('parquet'),
  jobPostsCost,
  memoryBench('csv'),
  memoryBench('json'),
  memoryBench('xlsx'),
  memoryBench('parquet'),
  apiLatency,
] satisfies Bench[];
