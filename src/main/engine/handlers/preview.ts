import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { loadExcelJs } from '../jobs/writers/exceljs-lazy';
import yauzl from 'yauzl';
import StreamJson from 'stream-json';
import StreamArray from 'stream-json/streamers/StreamArray';
import type { ExportPreview } from '../../../shared/contract';

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

export async function previewFile(path: string, format: 'json' | 'csv' | 'xlsx', compressed: boolean, rows: number): Promise<ExportPreview> {
  const stream = compressed ? await openFirstZipEntry(path) : createReadStream(path);
  try {
    if (format === 'csv') return await previewCsv(stream, rows);
    if (format === 'xlsx') return await previewXlsx(stream, rows);
    return await previewJson(stream, rows);
  } finally {
    stream.destroy();
  }
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
