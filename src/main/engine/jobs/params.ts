import type { OutputFormat } from './job-row';
export type SearchType = 'Latest' | 'Top';

// The validated parameters of a job as stored in jobs.params_json. Ids are decimal strings (exact
// 64-bit values; JSON.stringify cannot hold a BigInt).
export interface RepliesParams {
  tweet_id: string;
  since_id?: string;
  max_count?: number;
}

export interface SearchParams {
  query: string;
  type: SearchType;
  since_id?: string;
  max_id?: string;
  max_count: number;
}

export type JobParams = RepliesParams | SearchParams;

/**
 * How a CSV file is written (issue 16; our extension `csv_dialect`). `excel`: UTF-8 with a byte
 * order mark, CRLF, and text cells that begin with = + - @ TAB CR prefixed with an apostrophe so
 * Excel shows them as text. `plain`: UTF-8 without a BOM, CRLF, every text as it is (RFC 4180),
 * for pandas, R and any other CSV reader. Both quote the same way and share the column set.
 */
export type CsvDialect = 'excel' | 'plain';
export const CSV_DIALECTS: readonly CsvDialect[] = ['excel', 'plain'];
/**
 * What a job that does not say gets: the CSV Skein has always written (docs/decisions.md "CSV
 * dialects"). The spec leaves the file's structure open; existing scripts and Excel users keep
 * the file they had, and the guard stays on unless a caller asks for plain text.
 */
export const DEFAULT_CSV_DIALECT: CsvDialect = 'excel';

export interface JobOutput {
  output_format: OutputFormat;
  compress: boolean;
  /** Only for output_format csv. Stored in jobs.params_json (no column of its own: see csvDialectOf). */
  csv_dialect?: CsvDialect;
}

/**
 * The CSV dialect of a job row. Kept inside params_json, with the job's other validated
 * parameters, rather than in a column: it is never filtered or indexed on, and a job row from
 * before it existed (no key) wrote the excel dialect, which is what this answers for it.
 */
export function csvDialectOf(job: { params_json: string }): CsvDialect {
  try {
    const v = (JSON.parse(job.params_json) as { csv_dialect?: unknown }).csv_dialect;
    return v === 'plain' ? 'plain' : 'excel';
  } catch {
    return 'excel';
  }
}
