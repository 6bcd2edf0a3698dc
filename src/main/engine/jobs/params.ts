import type { OutputFormat } from './job-row';
export type SearchType = 'Latest' | 'Top';

// The validated parameters of a job as stored in jobs.params_json. Ids are decimal strings (exact
// 64-bit values; JSON.stringify cannot hold a BigInt).
export interface RepliesParams {
  tweet_id: string;
  since_id?: string;
  max_count?: number;
  /** The analyst's name for the job (issue 15; our extension `name`): 1 to MAX_JOB_NAME_CHARS characters. */
  name?: string;
}

export interface SearchParams {
  query: string;
  type: SearchType;
  since_id?: string;
  max_id?: string;
  max_count: number;
  name?: string;
}

/**
 * A job's name (issue 15) is a label for a list, not a title: 80 characters fit the Jobs table's
 * Collection column and an Exports row at 1024 px without hiding the query after it.
 */
export const MAX_JOB_NAME_CHARS = 80;

/** Which of a user's two timelines (spec 4.1 `tweets`: posts that are not replies; 4.2 `tweets-and-replies`: all). */
export type TimelineKind = 'tweets' | 'tweets-and-replies';

/**
 * A timeline job (issue 15; our extension, POST /social/user/<user_id>/<timeline>/asyncJob): the
 * user's posts newest first, as the timeline reads page them, into a file. By numeric id only:
 * the id is fixed for the job's life (a screen name can pass to another account between a job's
 * start and its resume), and it is the spec's timeline parameter.
 */
export interface TimelineParams {
  user_id: string;
  timeline: TimelineKind;
  max_count?: number;
  name?: string;
}

export type JobParams = RepliesParams | SearchParams | TimelineParams;

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

/**
 * A GEXF file's time slices (issue 16; our extension `gexf_dynamic`): none (a static graph: each
 * edge carries its first and last time), or hour, day or week slices (UTC; weeks from Monday):
 * each edge is present in the slices in which it happened, with its count there as the dynamic
 * weight, so Gephi's timeline plays the network.
 */
export type GexfSlice = 'hour' | 'day' | 'week';
export const GEXF_SLICES: readonly GexfSlice[] = ['hour', 'day', 'week'];
export const GEXF_SLICE_US: Record<GexfSlice, number> = { hour: 3_600_000_000, day: 86_400_000_000, week: 604_800_000_000 };

export interface JobOutput {
  output_format: OutputFormat;
  compress: boolean;
  /** Only for output_format csv. Stored in jobs.params_json (no column of its own: see csvDialectOf). */
  csv_dialect?: CsvDialect;
  /** Only for output_format gexf, when time-sliced. Stored in jobs.params_json like csv_dialect. */
  gexf_dynamic?: GexfSlice;
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

/** A GEXF job's time slices, or null for a static graph (no key: a job that did not ask). */
export function gexfSliceOf(job: { params_json: string }): GexfSlice | null {
  try {
    const v = (JSON.parse(job.params_json) as { gexf_dynamic?: unknown }).gexf_dynamic;
    return GEXF_SLICES.includes(v as GexfSlice) ? (v as GexfSlice) : null;
  } catch {
    return null;
  }
}
