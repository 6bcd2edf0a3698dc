import { mkdirSync, rmSync } from 'node:fs';
import type { TweetRow } from '../tweet-row';
import { type Column, COLUMNS, flattenTweet } from './columns';
import { sandboxedDuckDb, sqlPath } from './duckdb-lazy';

// Parquet (issue 16; output_format=parquet, our extension): the CSV's column set (columns.ts, the
// same names in the same order), typed, so pandas, Polars, R (arrow) and DuckDB read it without
// being told anything. Ids are VARCHAR (19 digits, exact: an int64 would hold them, but a float64
// on the way, pandas with a missing value, R's numeric, loses digits), timestamps are TIMESTAMP
// WITH TIME ZONE (UTC, microseconds: Parquet's isAdjustedToUTC timestamp), counts BIGINT, the
// reply depth INTEGER, booleans BOOLEAN, text VARCHAR exactly as posted. What the JSON export has
// as null is NULL here (a post that replies to nothing has no in_reply_to_* ids; a search job's
// rows have no wallet_address), where the CSV can only write an empty cell.
//
// Rows are staged as one JSON object a line (appendable, so a job resumes at its checkpoint like
// the others), and DuckDB turns that file into Parquet at the end in one streaming COPY with the
// column types given, never all rows in memory: it reads and writes a row group (122,880 rows) at
// a time, within its memory limit.

const TYPES: Record<Column['kind'], string> = { id: 'VARCHAR', text: 'VARCHAR', int: 'BIGINT', bool: 'BOOLEAN', time: 'TIMESTAMPTZ' };

/** Column name -> DuckDB type, in COLUMNS order. */
export const PARQUET_TYPES: readonly [string, string][] = COLUMNS.map((c) => [c.name, c.name === 'reply_depth' ? 'INTEGER' : TYPES[c.kind]]);

const LONE_SURROGATE = /\p{Cs}/u;

/** One row as the staged JSON object: ids text or null, times as ISO 8601 in UTC (microseconds). */
export function parquetRowJson(r: TweetRow, wallet: string | undefined): string {
  const cells = flattenTweet(r, wallet ?? '');
  const row: Record<string, string | number | boolean | null> = {};
  COLUMNS.forEach((c, i) => {
    const v = cells[i]!;
    if (c.kind === 'id') row[c.name] = v === '' ? null : v;
    // JSON.stringify would escape a lone surrogate, which no UTF-8 text holds (SQLite stored it as
    // U+FFFD already): the same replacement, so DuckDB reads valid text.
    else if (typeof v === 'string' && LONE_SURROGATE.test(v)) row[c.name] = v.replace(/\p{Cs}/gu, '\uFFFD');
    else row[c.name] = v;
  });
  row.in_reply_to_screen_name = r.in_reply_to_screen_name;
  row.wallet_address = wallet ?? null;
  return JSON.stringify(row);
}

/**
 * Writes the Parquet file from the staged rows. `tempDir` is where DuckDB may spill (created and
 * removed here). Idempotent: the output is written whole or the call fails.
 */
export async function writeParquetFromStaged(stagedPath: string, outPath: string, tempDir: string): Promise<void> {
  rmSync(outPath, { force: true });
  mkdirSync(tempDir, { recursive: true });
  const db = await sandboxedDuckDb([stagedPath, outPath], { tempDir });
  try {
    const columns = PARQUET_TYPES.map(([name, type]) => `${sqlPath(name)}: '${type}'`).join(', ');
    const names = PARQUET_TYPES.map(([name]) => `"${name}"`).join(', ');
    // preserve_insertion_order (DuckDB's default) keeps the rows in the job's order.
    await db.c.run(
      `COPY (SELECT ${names} FROM read_json(${sqlPath(stagedPath)}, format = 'newline_delimited', columns = {${columns}})) ` +
        `TO ${sqlPath(outPath)} (FORMAT parquet, COMPRESSION snappy)`,
    );
  } catch (err) {
    throw asDiskFull(err, outPath);
  } finally {
    db.close();
    rmSync(tempDir, { recursive: true, force: true });
  }
}

/**
 * DuckDB reports a full disk in its message only ("IO Error: ... No space left on device"): given
 * the code fs errors carry, the job pauses for space (jobs/disk-full.ts) instead of using attempts.
 */
function asDiskFull(err: unknown, path: string): unknown {
  const message = err instanceof Error ? err.message : String(err);
  if (!/no space left on device|disk is full/i.test(message)) return err;
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${path}' (${message})`), { code: 'ENOSPC', path, cause: err });
}
