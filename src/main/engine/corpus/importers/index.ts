import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { Db } from '../../store/db';
import { BulkWriter } from '../write/bulk';
import { parseJsonExact } from '../write/json';
import { archiveOwner, archiveToTweet } from './archive-map';
import { archivePrefixProblem, isArchivePost, peekHead } from './archive-prefix';
import { ENCODING_NAMES, EncodingError, type FallbackEncoding, type FileEncoding } from './decode';
import { type Container, detectBytes, readFileHead, readStreamHead } from './detect';
import { importValue, isFatal, type RecordContext, shapeOf, type Tally } from './records';
import { countsNow, emptyReport, type FileCounts, fileCounts, type ImportReport, problem, REASON_UNCHANGED, skip } from './report';
import { jsonLines, jsonValues, MAX_RECORD_CHARS, type RawRecord } from './scan';
import { NESTING_REASON, nestsTooDeep } from './nesting';
import { upsertTweet } from '../write/tweet';
import { chooseEncoding, type OpenBytes, READ_CHUNK_BYTES, textChunks } from './text-source';

// `skein import FILE|DIR...`: every file is detected from its content, read as a stream (flat
// memory whatever its size), cut into records, and each record goes through the corpus write path
// in batched transactions. Importing the same file twice adds nothing ("unchanged").

export { formatReport, type FileCounts, type ImportReport } from './report';

export interface ImportProgress {
  file: string;
  bytesDone: number;
  bytesTotal: number;
  records: number;
}

export interface ImportOptions {
  onProgress?: (p: ImportProgress) => void;
  /** A file's own counts, once read to its end (`file` as in report.files). */
  onFileDone?: (file: string, counts: FileCounts) => void;
  /** Records per transaction (default 1,000: a commit every fraction of a second). */
  batchSize?: number;
  /**
   * How files without a byte-order mark that are not valid UTF-8 are read: 'utf8' (default)
   * refuses them naming the first bad byte; 'latin1' reads them as Latin-1 (Windows-1252). Valid
   * UTF-8 files and files with a BOM are read as such either way, so it is safe for a whole run.
   */
  encoding?: FallbackEncoding;
  /** How long the import works before it lets the event loop turn (default YIELD_EVERY_MS; tests: 0). */
  yieldEveryMs?: number;
  /** Runs after each batch's commit (`skein import` keeps the WAL within its bound there: store/wal-bound.ts). */
  afterBatch?: () => void;
  /** Appended to a refusal for invalid UTF-8: how to read it as Latin-1 (default: the CLI's --encoding latin1). */
  latin1Hint?: string;
}

const ARCHIVE_TWEETS = /(^|\/)data\/(tweets?|tweets?-part\d+)\.js$/;
const ARCHIVE_ACCOUNT = /(^|\/)data\/account\.js$/;
const ARCHIVE_PROFILE = /(^|\/)data\/profile\.js$/;

interface Run {
  db: Db;
  report: ImportReport;
  bulk: BulkWriter;
  options: ImportOptions;
  records: number;
  batchSize: number;
  /** Records read but not yet written: written together, synchronously, in one transaction. */
  queue: { rec: RawRecord; handle: (rec: RawRecord) => void }[];
  queuedChars: number;
  /** Line of the record being written, for problems reported from inside the write path. */
  line: number;
}

// A batch is written when it holds this many characters even if it has fewer records (v2 pages
// are large): memory stays bounded whatever the file.
const MAX_BATCH_CHARS = 32 * 1024 * 1024;

/**
 * How long the import works before it lets the event loop turn. A 1 MiB chunk holds ~700 records,
 * which arrive as microtasks: measured, the app's import (on the engine's connection) held the
 * event loop 150-190 ms at a time whatever the batch size, so the app and the API stalled that long.
 */
const YIELD_EVERY_MS = 10;

function enqueue(run: Run, rec: RawRecord, handle: (rec: RawRecord) => void): void {
  run.queue.push({ rec, handle });
  run.queuedChars += rec.text.length;
  if (run.queue.length >= run.batchSize || run.queuedChars >= MAX_BATCH_CHARS) flush(run);
}

/**
 * Writes the queued records in one transaction with no await inside: the transaction never stays
 * open while a file is read, so the import can share a connection with the API and the app (their
 * writes run between batches, never inside one).
 */
function flush(run: Run): void {
  if (run.queue.length === 0) return;
  const queue = run.queue;
  run.queue = [];
  run.queuedChars = 0;
  run.bulk.begin();
  try {
    for (const { rec, handle } of queue) {
      run.line = rec.line;
      handle(rec);
    }
    run.bulk.commit();
  } catch (err) {
    run.bulk.abort();
    throw err;
  }
  run.options.afterBatch?.();
}

/**
 * Imports files and folders. Records are read ahead (no transaction open while reading) and written
 * in synchronous batches, so it may run on the engine's shared connection next to the API.
 */
export async function importPaths(db: Db, paths: readonly string[], options: ImportOptions = {}): Promise<ImportReport> {
  const report = emptyReport();
  const batchSize = options.batchSize ?? 1_000;
  const run: Run = { db, report, bulk: new BulkWriter(db, Number.MAX_SAFE_INTEGER), options, records: 0, batchSize, queue: [], queuedChars: 0, line: 0 };
  for (const p of paths) await importPath(run, p);
  flush(run);
  return report;
}

async function importPath(run: Run, path: string): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch {
    run.report.files.push({ file: path, format: 'not imported: no such file or folder', records: 0 });
    return;
  }
  if (info.isDirectory()) return importDirectory(run, path);
  try {
    await importFile(run, path, info);
  } catch (err) {
    // Backstop: a stack overflow (RangeError) is about this file's content, never the disk or the
    // database, so it stops this file only and the next files are still imported. nesting.ts
    // refuses the one known cause (deep nesting) record by record before it gets here.
    // An EncodingError here means the file changed after it was validated (text-source.ts).
    if (!(err instanceof RangeError || err instanceof EncodingError)) throw err;
    stopFile(run, path, err);
  }
}

/**
 * A file stopped part-way: its batch in progress was rolled back (flush) though already counted,
 * earlier batches stay. Only for failures outside a record (each record has its own catch), so no
 * line is named (0, as for a zip entry).
 */
function stopFile(run: Run, path: string, err: RangeError | EncodingError): void {
  run.queue = [];
  run.queuedChars = 0;
  problem(run.report, 'file stopped', { file: path, line: 0, message: `stopped, the rest of the file was not imported: ${err.message}` });
  const entry = run.report.files.filter((f) => f.file === path).pop();
  if (!entry) run.report.files.push({ file: path, format: `not imported: ${err.message}`, records: 0 });
  else entry.format = entry.format ? `${entry.format}, stopped: ${err.message}` : `not imported: ${err.message}`;
}

async function importFile(run: Run, path: string, info: { size: number; mtimeMs: number }): Promise<void> {
  const head = await readFileHead(path);
  const container = detectBytes(head);
  if (container.kind === 'zip') return importZip(run, path);
  const open = fileBytes(path);
  // A tweets.js on its own, by its name: its prefix is checked there (a wrong one is refused, not
  // read as plain JSON). The owner comes from account.js next to it.
  if (container.kind !== 'unknown' && ARCHIVE_TWEETS.test(path.replaceAll('\\', '/'))) {
    const owner = await ownerFromFolder(join(path, '..'));
    return importArchiveTweets(run, path, open, head, info.size, info.mtimeMs, owner);
  }
  await importStream(run, path, container, open, head, info.size, Math.floor(info.mtimeMs));
}

/** A file's bytes in 1 MiB chunks, no encoding: decode.ts decodes them. */
function fileBytes(path: string): OpenBytes {
  return () => Promise.resolve(createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }));
}

/**
 * The file's encoding (text-source.ts), or undefined after listing the file as not imported: not
 * valid UTF-8 (with the offset of the first bad byte) and no --encoding latin1.
 */
async function encodingFor(run: Run, file: string, head: Buffer, open: OpenBytes): Promise<FileEncoding | undefined> {
  const choice = await chooseEncoding(head, open, run.options.encoding ?? 'utf8', run.options.latin1Hint);
  if ('encoding' in choice) return choice.encoding;
  run.report.files.push({ file, format: `not imported: ${choice.refused}`, records: 0 });
  return undefined;
}

/** ", read as UTF-16 LE" for the file's format line when it is not plain UTF-8. */
function encodingNote(encoding: FileEncoding): string {
  return encoding === 'utf-8' ? '' : `, read as ${ENCODING_NAMES[encoding]}`;
}

async function importDirectory(run: Run, dir: string): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  // An unpacked X archive: data/account.js and data/tweets.js.
  const data = entries.find((e) => e.isDirectory() && e.name === 'data');
  if (data) {
    const dataEntries = await readdir(join(dir, 'data'));
    const tweetFiles = dataEntries.filter((n) => ARCHIVE_TWEETS.test(`data/${n}`)).sort();
    if (tweetFiles.length && dataEntries.includes('account.js')) {
      const owner = await ownerFromFolder(join(dir, 'data'));
      for (const n of tweetFiles) {
        const file = join(dir, 'data', n);
        const s = await stat(file);
        await importArchiveTweets(run, file, fileBytes(file), await readFileHead(file), s.size, s.mtimeMs, owner);
      }
      return;
    }
  }
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    await importPath(run, join(dir, e.name));
  }
}

async function readWholeJs(stream: Readable): Promise<unknown> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk as string;
    if (text.length > MAX_RECORD_CHARS) return undefined;
  }
  const at = text.search(/[[{]/);
  if (at < 0) return undefined;
  try {
    return parseJsonExact(text.slice(at).replace(/;\s*$/, ''));
  } catch {
    return undefined;
  }
}

async function ownerFromFolder(dataDir: string): Promise<Record<string, unknown> | undefined> {
  const read = async (name: string) => {
    try {
      return await readWholeJs(createReadStream(join(dataDir, name), { encoding: 'utf8' }));
    } catch {
      return undefined;
    }
  };
  return archiveOwner(await read('account.js'), await read('profile.js'));
}

function tallyFor(run: Run, file: string): Tally {
  const line = () => run.line;
  return (o) => {
    run.records++;
    if (o === 'added') run.report.added++;
    else if (o === 'updated') run.report.updated++;
    else if (o === 'unchanged') skip(run.report, REASON_UNCHANGED);
    else if (o.problem) problem(run.report, o.skipped, { file, line: line(), message: o.detail ?? o.skipped });
    else skip(run.report, o.skipped);
  };
}

/** Progress for one file: at most one report per 4 MiB read, so a large file does not flood stderr. */
function progressOf(run: Run, file: string, size: number): (bytes: number) => void {
  let lastReport = 0;
  return (bytes) => {
    if (bytes - lastReport < 4 << 20 && bytes < size) return;
    lastReport = bytes;
    run.options.onProgress?.({ file, bytesDone: bytes, bytesTotal: size, records: run.records });
  };
}

/**
 * One record's JSON, ids exact; a malformed record, or one nested too deep for the code after the
 * parse (nesting.ts), is reported with its line, counted, and skipped.
 */
function parseRecord(run: Run, file: string, rec: RawRecord): { value: unknown } | undefined {
  if (nestsTooDeep(rec.text)) {
    problem(run.report, NESTING_REASON, { file, line: rec.line, message: `${NESTING_REASON} (arrays or objects inside each other): not a post, article or space` });
    run.records++;
    return undefined;
  }
  try {
    return { value: parseJsonExact(rec.text) };
  } catch (err) {
    problem(run.report, 'malformed JSON', { file, line: rec.line, message: `malformed JSON: ${(err as Error).message}` });
    run.records++;
    return undefined;
  }
}

/**
 * Feeds a file's records to `handle` in batches (enqueue/flush), skipping oversized ones with a
 * report, then settles the file's entry: its record count and a final progress report.
 */
async function drain(
  run: Run,
  d: { entry: ImportReport['files'][number]; before: number; size: number; stream: Readable; records: AsyncIterable<RawRecord>; handle: (rec: RawRecord) => void },
): Promise<void> {
  const { file } = d.entry;
  // The previous file's last batch was written (flush below), so what is counted from here on is this file's.
  const counted = countsNow(run.report);
  let workSinceMs = performance.now();
  try {
    for await (const rec of d.records) {
      if (rec.oversized) {
        problem(run.report, 'record too large', { file, line: rec.line, message: `a record longer than ${MAX_RECORD_CHARS / 1024 / 1024} MiB characters` });
        continue;
      }
      enqueue(run, rec, d.handle);
      // The records of a chunk arrive as microtasks, which never let the event loop turn: give it
      // a turn every YIELD_EVERY_MS, so the app and the API answer while the app imports.
      if (performance.now() - workSinceMs >= (run.options.yieldEveryMs ?? YIELD_EVERY_MS)) {
        await new Promise((resolve) => setImmediate(resolve));
        workSinceMs = performance.now();
      }
    }
  } finally {
    d.stream.destroy();
  }
  flush(run);
  d.entry.records = run.records - d.before;
  run.options.onFileDone?.(file, fileCounts(run.report, counted));
  run.options.onProgress?.({ file, bytesDone: d.size, bytesTotal: d.size, records: run.records });
}

async function importStream(run: Run, file: string, container: Container, open: OpenBytes, head: Buffer, size: number, retrievedAtMs: number): Promise<void> {
  if (container.kind === 'unknown' || container.kind === 'zip') {
    run.report.files.push({ file, format: `not imported: ${container.kind === 'unknown' ? container.why : 'a zip inside a zip'}`, records: 0 });
    return;
  }
  const encoding = await encodingFor(run, file, head, open);
  if (!encoding) return;
  const entry = { file, format: '', records: 0 };
  run.report.files.push(entry);
  const before = run.records;
  const ctx: RecordContext = { db: run.db, retrievedAtMs, tally: tallyFor(run, file) };
  const stream = await open();
  const chunks = textChunks(stream, encoding, progressOf(run, file, size));
  const records = container.kind === 'json-lines' ? jsonLines(chunks) : jsonValues(chunks, { skipPrefix: container.kind === 'archive-js' });
  const containerName = (container.kind === 'json-lines' ? 'JSON Lines' : container.kind === 'archive-js' ? 'X archive part' : 'JSON') + encodingNote(encoding);
  const handle = (rec: RawRecord) => {
    const parsed = parseRecord(run, file, rec);
    if (!parsed) return;
    const { value } = parsed;
    try {
      // shapeOf inside the try: it walks nested arrays, and a stack overflow there (a RangeError,
      // not fatal) refuses this record rather than ending the import.
      if (!entry.format) entry.format = `${shapeOf(value)} (${containerName})`;
      importValue(ctx, value);
    } catch (err) {
      if (isFatal(err)) throw err;
      problem(run.report, 'invalid record', { file, line: rec.line, message: (err as Error).message });
    }
  };
  await drain(run, { entry, before, size, stream, records, handle });
  if (!entry.format) entry.format = containerName;
}

async function importArchiveTweets(run: Run, file: string, open: OpenBytes, head: Buffer, size: number, mtimeMs: number, owner: Record<string, unknown> | undefined): Promise<void> {
  if (!owner) {
    run.report.files.push({ file, format: 'not imported: an X archive part without a readable data/account.js next to it (whose posts these are cannot be told)', records: 0 });
    return;
  }
  const encoding = await encodingFor(run, file, head, open);
  if (!encoding) return;
  const stream = await open();
  // The prefix is JavaScript before the first '[': 200 characters hold any real one.
  const { head: textHead, all: chunks } = await peekHead(textChunks(stream, encoding, progressOf(run, file, size)), 200);
  const wrongPrefix = archivePrefixProblem(textHead);
  if (wrongPrefix) {
    stream.destroy();
    run.report.files.push({ file, format: `not imported: ${wrongPrefix}`, records: 0 });
    return;
  }
  const entry = { file, format: `X archive tweets${encodingNote(encoding)}`, records: 0 };
  run.report.files.push(entry);
  const before = run.records;
  const tally = tallyFor(run, file);
  const options = { retrievedAtMs: Math.floor(mtimeMs) };
  const handle = (rec: RawRecord) => {
    const parsed = parseRecord(run, file, rec);
    if (!parsed) return;
    const { value } = parsed;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      tally({ skipped: 'not a record (not a JSON object)' });
      return;
    }
    if (!isArchivePost(value as Record<string, unknown>)) {
      const keys = Object.keys(value).slice(0, 8).join(', ');
      tally({ skipped: 'not an X archive post', detail: `not an X archive post: expected {"tweet": {...}}, found an object with keys: ${keys}`, problem: true });
      return;
    }
    try {
      tally(upsertTweet(run.db, archiveToTweet(value as Record<string, unknown>, owner), options));
    } catch (err) {
      if (isFatal(err)) throw err;
      tally({ skipped: 'invalid record', detail: (err as Error).message, problem: true });
    }
  };
  await drain(run, { entry, before, size, stream, records: jsonValues(chunks, { skipPrefix: true }), handle });
}

// --- zip files: an X archive as downloaded, or a zip of data files (a compressed job output).

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => yauzl.open(path, { lazyEntries: true, autoClose: false }, (err, zip) => (err || !zip ? reject(err ?? new Error('cannot open zip')) : resolve(zip))));
}

async function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const out: yauzl.Entry[] = [];
    zip.on('entry', (e: yauzl.Entry) => {
      out.push(e);
      zip.readEntry();
    });
    zip.once('end', () => resolve(out));
    zip.once('error', reject);
    zip.readEntry();
  });
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, s) => {
    if (err || !s) return reject(err ?? new Error('cannot read zip entry'));
    resolve(s);
  }));
}

async function importZip(run: Run, path: string): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(path);
  } catch (err) {
    run.report.files.push({ file: path, format: `not imported: unreadable zip (${(err as Error).message})`, records: 0 });
    return;
  }
  try {
    const entries = (await listEntries(zip)).filter((e) => !e.fileName.endsWith('/'));
    const tweets = entries.filter((e) => ARCHIVE_TWEETS.test(e.fileName)).sort((a, b) => a.fileName.localeCompare(b.fileName));
    const account = entries.find((e) => ARCHIVE_ACCOUNT.test(e.fileName));
    if (tweets.length && account) {
      const profile = entries.find((e) => ARCHIVE_PROFILE.test(e.fileName));
      const owner = archiveOwner(await readWholeJs((await entryStream(zip, account)).setEncoding('utf8')), profile ? await readWholeJs((await entryStream(zip, profile)).setEncoding('utf8')) : undefined);
      for (const e of tweets) {
        const open = () => entryStream(zip, e);
        await importArchiveTweets(run, `${path}!${e.fileName}`, open, await readStreamHead(await open()), e.uncompressedSize, e.getLastModDate().getTime(), owner);
      }
      return;
    }
    for (const e of entries) {
      const name = basename(e.fileName);
      if (name.startsWith('.') || e.fileName.startsWith('__MACOSX/')) continue;
      const open = () => entryStream(zip, e);
      const head = await readStreamHead(await open());
      await importStream(run, `${path}!${e.fileName}`, detectBytes(head), open, head, e.uncompressedSize, e.getLastModDate().getTime());
    }
  } finally {
    zip.close();
  }
}
