import type { OutputFormat } from '../job-row';
import { detailTweetJson } from '../../serialize/tweet-json';
import type { TweetRow } from '../tweet-row';
import { flattenTweet } from './columns';
import { csvHeader, csvLine } from './csv';
import { parquetRowJson } from './parquet';

/**
 * How each output format is staged while a job collects rows. JSON and CSV are staged in their
 * final form (the staged file becomes the data file); XLSX cannot be appended to, so its rows are
 * staged as one JSON array of cells per line and the workbook is built from them at the end.
 * Parquet is staged as one typed JSON object per line (writers/parquet.ts), GEXF as the rows'
 * post ids, one a line: its network is built from the corpus at the end (writers/gexf-graph.ts).
 */
export interface StagedFormat {
  /** Extension of the staged file. */
  stagingExt: string;
  /** Extension of the data file. */
  ext: OutputFormat;
  /** Bytes that open the staged file. */
  header: string;
  /** Bytes that close it, appended after the last committed byte at the end (JSON's `]`). */
  footer: string;
  /** One row's staged text; `index` is the number of rows staged before it. */
  line(row: TweetRow, wallet: string | undefined, index: number): string;
}

const json: StagedFormat = {
  stagingExt: 'json',
  ext: 'json',
  header: '[',
  footer: '\n]\n',
  line: (r, wallet, index) => (index === 0 ? '\n' : ',\n') + detailTweetJson(r, wallet),
};

// CSV is staged in the plain dialect, whatever the job's csv_dialect: this table is looked up by
// output_format alone (run-job.ts), and the plain text is the one the other dialect can be made
// from (the guard only adds; it cannot be taken off again: "'=x" may be a text of its own). A
// plain job's staged file becomes its data file as it is; an excel job's passes through
// writers/excel-csv.ts at the end (finalize.ts).
const csv: StagedFormat = {
  stagingExt: 'csv',
  ext: 'csv',
  header: csvHeader('plain'),
  footer: '',
  line: (r, wallet) => csvLine(flattenTweet(r, wallet ?? ''), 'plain'),
};

/** A format staged one line per row, without header or footer, and built into its file at finalize. */
function stagedLines(stagingExt: string, ext: OutputFormat, line: (row: TweetRow, wallet: string | undefined) => string): StagedFormat {
  return {
    stagingExt,
    ext,
    header: '',
    footer: '',
    line: (r, wallet) => `${line(r, wallet)}\n`,
  };
}

const xlsx = stagedLines('cells.jsonl', 'xlsx', (r, wallet) => JSON.stringify(flattenTweet(r, wallet ?? '')));
// A wallet the row does not have stays null in Parquet (undefined here), as in the JSON export.
const parquet = stagedLines('parquet.jsonl', 'parquet', (r, wallet) => parquetRowJson(r, wallet));
// The network is built from the posts in the corpus at finalize: only their ids are staged.
const gexf = stagedLines('post-ids.txt', 'gexf', (r) => String(r.id));

export const stagedFormats: Record<OutputFormat, StagedFormat> = { json, csv, xlsx, gexf, parquet };

export const contentTypes: Record<OutputFormat | 'zip', string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  // GEXF's customary type (it has no IANA registration); Parquet's IANA type (registered 2024).
  gexf: 'application/gexf+xml',
  parquet: 'application/vnd.apache.parquet',
  zip: 'application/zip',
};
