import { fail } from '../errors';
import { parseNumericId, preview } from '../reads/params';
import { countReplies, parseQuery } from '../search';
import type { Db } from '../store/db';
import type { OutputFormat } from './job-row';
import { countTimeline, timelineUser } from './kinds/timeline';
import { MAX_MAX_COUNT, MAX_QUERY_LENGTH, SEARCH_DEFAULT_MAX_COUNT } from './limits';
import { CSV_DIALECTS, DEFAULT_CSV_DIALECT, GEXF_SLICES, MAX_JOB_NAME_CHARS, type CsvDialect, type GexfSlice, type JobOutput, type RepliesParams, type SearchParams, type SearchType, type TimelineKind, type TimelineParams } from './params';

// Validation of the job-creating requests (spec 4.6 and 4.7), whatever carried them: the query
// string, a JSON body or a form body (docs/decisions.md "Job parameters"). Every refusal is a 422
// naming the parameter. Values may be strings (query, form), or JSON numbers, booleans and exact
// big integers (a JSON body is parsed without rounding ids).

export type RawParams = Record<string, unknown>;

const REPLIES_KEYS = ['since_id', 'max_count', 'compress', 'output_format', 'csv_dialect', 'gexf_dynamic', 'name'];
const TIMELINE_KEYS = ['max_count', 'compress', 'output_format', 'csv_dialect', 'gexf_dynamic', 'name'];
const SEARCH_KEYS = ['query', 'type', 'since_id', 'max_id', 'max_count', 'compress', 'output_format', 'csv_dialect', 'gexf_dynamic', 'name'];

function once(name: string, raw: unknown): unknown {
  if (Array.isArray(raw)) throw fail.invalid(name, 'give it once, not several times.');
  return raw;
}

function checkKnown(raw: RawParams, known: readonly string[]): void {
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) throw fail.invalid(key, `unknown parameter (this endpoint takes ${known.join(', ')}).`);
  }
}

function optionalId(name: string, raw: unknown): string | undefined {
  const v = once(name, raw);
  if (v === undefined || v === null || v === '') return undefined;
  const text = typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v)) ? String(v) : v;
  if (typeof v === 'number' && !Number.isSafeInteger(v)) throw fail.invalid(name, 'a JSON number this large loses digits: send the id as a string.');
  return parseNumericId(name, text).toString();
}

function maxCount(raw: unknown): number | undefined {
  const v = once('max_count', raw);
  if (v === undefined || v === null || v === '') return undefined;
  const text = typeof v === 'number' || typeof v === 'bigint' ? String(v) : v;
  if (typeof text !== 'string' || !/^\d{1,9}$/.test(text)) throw fail.invalid('max_count', `expected a whole number from 1 to ${MAX_MAX_COUNT}, got '${preview(String(text))}'.`);
  const n = Number(text);
  if (n < 1 || n > MAX_MAX_COUNT) throw fail.invalid('max_count', `must be from 1 to ${MAX_MAX_COUNT}, got ${n}.`);
  return n;
}

function compress(raw: unknown): boolean {
  const v = once('compress', raw);
  if (v === undefined || v === null || v === '') return false;
  if (typeof v === 'boolean') return v;
  const s = String(v).toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw fail.invalid('compress', `expected true or false, got '${preview(String(v))}'.`);
}

// gexf and parquet are our extensions (issue 16): a network of the rows' users for Gephi, and typed
// columns for pandas, Polars, R and DuckDB.
const FORMATS: readonly OutputFormat[] = ['json', 'csv', 'xlsx', 'gexf', 'parquet'];

function outputFormat(raw: unknown): OutputFormat {
  const v = once('output_format', raw);
  if (v === undefined || v === null || v === '') return 'json';
  const s = String(v).toLowerCase() as OutputFormat;
  if (!FORMATS.includes(s)) throw fail.invalid('output_format', `expected json, csv, xlsx, gexf or parquet, got '${preview(String(v))}'.`);
  return s;
}

/**
 * csv_dialect (our extension, issue 16): excel or plain, case-insensitive; a csv job without it
 * gets DEFAULT_CSV_DIALECT. With another output_format it is a 422, like max_id on a reply job: a
 * parameter that cannot change the file is a mistake to point out, not to ignore (a script that
 * sends csv_dialect=plain with output_format=xlsx expects something it would not get).
 */
function csvDialect(raw: unknown, format: OutputFormat): CsvDialect | undefined {
  const v = once('csv_dialect', raw);
  if (v === undefined || v === null || v === '') return format === 'csv' ? DEFAULT_CSV_DIALECT : undefined;
  const s = String(v).toLowerCase() as CsvDialect;
  if (!CSV_DIALECTS.includes(s)) throw fail.invalid('csv_dialect', `expected excel or plain, got '${preview(String(v))}'.`);
  if (format !== 'csv') throw fail.invalid('csv_dialect', `applies to output_format=csv only, and this job writes ${format}: leave it out, or ask for csv.`);
  return s;
}

/**
 * gexf_dynamic (our extension, issue 16): hour, day or week slices for a GEXF file whose edges
 * play on Gephi's timeline; true means day, false (or leaving it out) a static graph. With
 * another output_format it is a 422, as csv_dialect is with a file that is not CSV.
 */
function gexfDynamic(raw: unknown, format: OutputFormat): GexfSlice | undefined {
  const v = once('gexf_dynamic', raw);
  if (v === undefined || v === null || v === '') return undefined;
  const s = String(v).toLowerCase();
  const slice: GexfSlice | null | undefined = s === 'true' || s === '1' ? 'day' : s === 'false' || s === '0' ? null : GEXF_SLICES.find((x) => x === s);
  if (slice === undefined) throw fail.invalid('gexf_dynamic', `expected hour, day, week, true (day) or false, got '${preview(String(v))}'.`);
  if (format !== 'gexf') throw fail.invalid('gexf_dynamic', `applies to output_format=gexf only, and this job writes ${format}: leave it out, or ask for gexf.`);
  return slice ?? undefined;
}

/**
 * name (our extension, issue 15): the analyst's label for the job, shown in the app's Jobs and
 * Exports lists. Trimmed; 1 to MAX_JOB_NAME_CHARS characters (code points, so an emoji counts
 * once); no control characters (a line break would split a table row). Empty means no name, as
 * for every other optional parameter; only spaces is a 422 (a name that shows as nothing).
 */
function jobName(raw: unknown): string | undefined {
  const v = once('name', raw);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw fail.invalid('name', `expected text of 1 to ${MAX_JOB_NAME_CHARS} characters, got ${typeof v === 'bigint' ? 'number' : typeof v}.`);
  const name = v.trim();
  if (name === '') throw fail.invalid('name', 'a name needs at least one character besides spaces; leave it out for no name.');
  const chars = [...name].length;
  if (chars > MAX_JOB_NAME_CHARS) throw fail.invalid('name', `at most ${MAX_JOB_NAME_CHARS} characters, got ${chars}.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw fail.invalid('name', 'no line breaks, tabs or other control characters.');
  return name;
}

function searchType(raw: unknown): SearchType {
  const v = once('type', raw);
  if (v === undefined || v === null || v === '') return 'Latest';
  const s = String(v).toLowerCase();
  if (s === 'latest') return 'Latest';
  if (s === 'top') return 'Top';
  throw fail.invalid('type', `expected Latest or Top, got '${preview(String(v))}'.`);
}

export function parseOutput(raw: RawParams): JobOutput {
  const format = outputFormat(raw.output_format);
  const dialect = csvDialect(raw.csv_dialect, format);
  const slice = gexfDynamic(raw.gexf_dynamic, format);
  return { output_format: format, compress: compress(raw.compress), ...(dialect ? { csv_dialect: dialect } : {}), ...(slice ? { gexf_dynamic: slice } : {}) };
}

export interface ParsedJob<P> {
  params: P;
  output: JobOutput;
  /** The most rows the job can write, and so the credits it holds. */
  maxRows: number;
}

/**
 * Spec 4.6. 404 for an unknown post. The hold (section 7: the balance must cover every reply the
 * platform reports, unless max_count is set) is max_count when given, otherwise the larger of the
 * post's reply_count and the replies of levels one and two under it that the store holds (what
 * the job will collect: protected accounts left out, since_id applied): reply_count counts direct
 * replies only, and a job never writes more rows than it holds (docs/decisions.md).
 */
export function parseRepliesJob(db: Db, tweetIdRaw: unknown, raw: RawParams): ParsedJob<RepliesParams> {
  checkKnown(raw, REPLIES_KEYS);
  const tweetId = parseNumericId('tweet_id', once('tweet_id', tweetIdRaw));
  const sinceId = optionalId('since_id', raw.since_id);
  const max = maxCount(raw.max_count);
  const output = parseOutput(raw);
  const name = jobName(raw.name);
  const post = db.prepare('SELECT reply_count FROM posts WHERE id = ?').safeIntegers(true).get(tweetId) as { reply_count: bigint } | undefined;
  if (!post) throw fail.notFound(`Tweet ${tweetId} was not found.`);
  const params: RepliesParams = { tweet_id: tweetId.toString(), ...(sinceId ? { since_id: sinceId } : {}), ...(max ? { max_count: max } : {}), ...(name ? { name } : {}) };
  let maxRows = max;
  if (maxRows === undefined) {
    const stored = countReplies(db, { tweetId, ...(sinceId ? { sinceId: BigInt(sinceId) } : {}) }, MAX_MAX_COUNT);
    maxRows = Math.min(MAX_MAX_COUNT, Math.max(Number(post.reply_count), stored));
  }
  return { params, output, maxRows };
}

/** Spec 4.7. A query the search language refuses is a 422 naming its position. */
export function parseSearchJob(raw: RawParams): ParsedJob<SearchParams> {
  checkKnown(raw, SEARCH_KEYS);
  const query = once('query', raw.query);
  if (query === undefined || query === null || query === '') throw fail.missing('query');
  if (typeof query !== 'string') throw fail.invalid('query', 'expected text.');
  if (query.length > MAX_QUERY_LENGTH) throw fail.invalid('query', `at most ${MAX_QUERY_LENGTH} characters, got ${query.length}.`);
  parseQuery(query);
  const sinceId = optionalId('since_id', raw.since_id);
  const maxId = optionalId('max_id', raw.max_id);
  const max = maxCount(raw.max_count) ?? SEARCH_DEFAULT_MAX_COUNT;
  const params: SearchParams = {
    query,
    type: searchType(raw.type),
    max_count: max,
    ...(sinceId ? { since_id: sinceId } : {}),
    ...(maxId ? { max_id: maxId } : {}),
  };
  const output = parseOutput(raw);
  const name = jobName(raw.name);
  return { params: name ? { ...params, name } : params, output, maxRows: max };
}

/**
 * A timeline job (issue 15; our extension): the user by numeric id (404 unknown, 403 protected,
 * as the timeline reads answer). The hold is max_count when given; otherwise the most the job can
 * write from where it reads: offline, the posts of that timeline the corpus holds (exactly what it
 * writes); through an upstream (`viaUpstream`), also the user's statuses_count if larger, since
 * the walk may bring that many (docs/decisions.md "Jobs: a user's timeline to a file").
 */
export function parseTimelineJob(db: Db, userIdRaw: unknown, timeline: TimelineKind, raw: RawParams, viaUpstream = false): ParsedJob<TimelineParams> {
  checkKnown(raw, TIMELINE_KEYS);
  const userId = parseNumericId('user_id', once('user_id', userIdRaw));
  const max = maxCount(raw.max_count);
  const output = parseOutput(raw);
  const name = jobName(raw.name);
  const user = timelineUser(db, userId);
  const params: TimelineParams = { user_id: userId.toString(), timeline, ...(max ? { max_count: max } : {}), ...(name ? { name } : {}) };
  let maxRows = max;
  if (maxRows === undefined) {
    const stored = countTimeline(db, userId, timeline, MAX_MAX_COUNT);
    maxRows = Math.min(MAX_MAX_COUNT, viaUpstream ? Math.max(stored, Number(user.statuses_count)) : stored);
  }
  return { params, output, maxRows };
}
