import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { loadExcelJs } from '../jobs/writers/exceljs-lazy';
import yauzl from 'yauzl';
import StreamJson from 'stream-json';
import StreamArray from 'stream-json/streamers/StreamArray';
import type { ExportPreview, OutputFormat } from '../../../shared/contract';
import { sandboxedDuckDb, sqlPath } from '../jobs/writers/duckdb-lazy';
import { PARQUET_TYPES } from '../jobs/writers/parquet';

// The first rows of a data file, read as a stream and stopped early: a million-row export is
// previewed as fast as a ten-row one, with flat memory.

/** Columns shown for a JSON file (full Tweet objects): the ones an analyst checks first. */
const JSON_COLUMNS: [string, (t: Record<string, unknown>) => unknown][] = [
  ['id_str', (t) => t.id_str],
  ['tweet_created_at', (t) => t.tweet_created_at],
  ['user_screen_name', (t) => (t.user as Record<string, unknown> | undefined)?.screen_name],
  ['full_text', (t) => t.full_text],
  ['in_reply_to_status_id_str', (t) => t.in_reply_to_status_id_str],
  ['reply_count', (t) => t.reply_count],
  ['retweet_count', (t) => t.retweet_count],
  ['favorite_count', (t) => t.favorite_count],
  ['wallet_address', (t) => t.wallet_address],
];

// An XLSX timestamp is a date-time cell (writers/xlsx-layout.ts): shown in UTC, as ISO 8601.
const text = (v: unknown): string =>
  v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);

export async function previewFile(path: string, format: OutputFormat, compressed: boolean, rows: number): Promise<ExportPreview> {
  if (format === 'parquet') return compressed ? ZIPPED_PARQUET : previewParquet(path, rows);
  const stream = compressed ? await openFirstZipEntry(path) : createReadStream(path);
  try {
    if (format === 'csv') return await previewCsv(stream, rows);
    if (format === 'xlsx') return await previewXlsx(stream, rows);
    if (format === 'gexf') return await previewGexf(stream, rows);
    return await previewJson(stream, rows);
  } finally {
    stream.destroy();
  }
}

// Parquet's index is at the end of the file: a zipped one would have to be unpacked whole first.
const ZIPPED_PARQUET: ExportPreview = {
  columns: ['note'],
  rows: [['A zipped Parquet file is previewed once unzipped: download it, or run the job again without compress (Parquet is compressed already).']],
  total_rows: null,
};

/** The first rows, read by DuckDB (it reads the file's index, then only the first row group). */
async function previewParquet(path: string, rows: number): Promise<ExportPreview> {
  const db = await sandboxedDuckDb([path], { memoryLimit: '256MB' });
  try {
    const select = PARQUET_TYPES.map(([name, type]) =>
      type === 'TIMESTAMPTZ' ? `strftime("${name}", '%Y-%m-%dT%H:%M:%S.%fZ') AS "${name}"` : `CAST("${name}" AS VARCHAR) AS "${name}"`,
    ).join(', ');
    const reader = await db.c.runAndReadAll(`SELECT ${select} FROM read_parquet(${sqlPath(path)}) LIMIT ${Math.floor(rows)}`);
    return { columns: reader.columnNames(), rows: reader.getRows().map((r) => r.map((v) => (v === null ? '' : String(v)))), total_rows: null };
  } finally {
    db.close();
  }
}

const GEXF_COLUMNS = ['id', 'label', 'screen_name', 'name', 'followers_count', 'statuses_count', 'posts', 'in_corpus'];
const XML_ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unXml = (v: string): string =>
  v.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e.startsWith('#x') ? String.fromCodePoint(parseInt(e.slice(2), 16)) : e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : XML_ENTITY[e]!);

/** A GEXF file's first nodes (they come before the edges), read as a stream and stopped early. */
async function previewGexf(stream: Readable, rows: number): Promise<ExportPreview> {
  const nodes: string[][] = [];
  let buf = '';
  outer: for await (const chunk of stream) {
    buf += (chunk as Buffer).toString('utf8');
    for (;;) {
      const start = buf.indexOf('<node ');
      const end = start < 0 ? -1 : buf.indexOf('</node>', start);
      if (end < 0) {
        if (start < 0 && buf.includes('<edges')) break outer;
        buf = start < 0 ? buf.slice(-16) : buf.slice(start);
        break;
      }
      const node = buf.slice(start, end);
      buf = buf.slice(end + 7);
      const attr = (re: RegExp): string => unXml(re.exec(node)?.[1] ?? '');
      const values = new Map([...node.matchAll(/<attvalue for="([^"]*)" value="([^"]*)"/g)].map((m) => [m[1]!, unXml(m[2]!)]));
      nodes.push([attr(/ id="([^"]*)"/), attr(/ label="([^"]*)"/), ...GEXF_COLUMNS.slice(2).map((c) => values.get(c) ?? '')]);
      if (nodes.length >= rows) break outer;
    }
  }
  return { columns: GEXF_COLUMNS, rows: nodes, total_rows: null };
}

function openFirstZipEntry(path: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('cannot open the zip file'));
      zip.once('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, s) => (e || !s ? reject(e ?? new Error('cannot read the zip entry')) : resolve(s)));
      });
      zip.once('end', () => reject(new Error('the zip file is empty')));
      zip.readEntry();
    });
  });
}

/** RFC 4180 records from a stream, stopping after `limit` records (the header counts as one). */
async function previewCsv(stream: Readable, rows: number): Promise<ExportPreview> {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let afterQuote = false;
  let first = true;
  const limit = rows + 1;
  outer: for await (const chunk of stream) {
    let s = (chunk as Buffer).toString('utf8');
    if (first) {
      s = s.replace(/^\uFEFF/, '');
      first = false;
    }
    for (let i = 0; i < s.length; i++) {
      const ch = s[i]!;
      if (quoted) {
        if (ch === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i++;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else field += ch;
        continue;
      }
      if (ch === '"' && field === '' && !afterQuote) quoted = true;
      else if (ch === ',') {
        record.push(field);
        field = '';
        afterQuote = false;
      } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && s[i + 1] === '\n') i++;
        record.push(field);
        records.push(record);
        field = '';
        record = [];
        afterQuote = false;
        if (records.length >= limit) break outer;
      } else field += ch;
    }
  }
  if ((field !== '' || record.length) && records.length < limit) records.push([...record, field]);
  const [columns = [], ...body] = records;
  return { columns, rows: body, total_rows: null };
}

async function previewXlsx(stream: Readable, rows: number): Promise<ExportPreview> {
  const { stream: xlsx } = await loadExcelJs();
  const reader = new xlsx.xlsx.WorkbookReader(stream, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache' });
  const records: string[][] = [];
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      const values = (row.values as unknown[]).slice(1).map((v) => text(v && typeof v === 'object' && 'text' in (v as object) ? (v as { text: unknown }).text : v));
      records.push(values);
      if (records.length > rows) break;
    }
    break;
  }
  const [columns = [], ...body] = records;
  return { columns, rows: body, total_rows: null };
}

async function previewJson(stream: Readable, rows: number): Promise<ExportPreview> {
  const items: string[][] = [];
  const pipeline = stream.pipe(StreamJson.parser()).pipe(StreamArray.streamArray());
  for await (const item of pipeline as AsyncIterable<{ key: number; value: Record<string, unknown> }>) {
    items.push(JSON_COLUMNS.map(([, get]) => text(get(item.value))));
    if (items.length >= rows) break;
  }
  pipeline.destroy();
  return { columns: JSON_COLUMNS.map(([name]) => name), rows: items, total_rows: null };
}
