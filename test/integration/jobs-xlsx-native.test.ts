import ExcelJS from 'exceljs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upsertTweet } from '../../src/main/engine/corpus/write';
import { previewFile } from '../../src/main/engine/handlers/preview';
import { COLUMNS } from '../../src/main/engine/jobs/writers/columns';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer, type TestServer } from '../helpers/http';
import { tempDir } from '../helpers/temp';

// XLSX that opens like a sheet made in Excel (issue 16): timestamps are date-time cells (UTC, the
// zone in their format and in a note on the header), the header row is frozen and carries an
// autofilter over every row, columns have widths, ids stay text cells and no text is altered (no
// formula guard: a string cell is never a formula). A real reply job over HTTP, its file read back
// with exceljs and compared with the JSON export of the same job.

const REPLIES = `/social/tweets/${ROOT_ID}/comments/asyncJob`;
const col = (name: string) => COLUMNS.findIndex((c) => c.name === name) + 1; // exceljs columns count from 1

interface JsonPost {
  id_str: string;
  tweet_created_at: string;
  full_text: string;
  favorite_count: number;
  user: { id_str: string; created_at: string };
}

/** `2025-03-04T05:06:07.123456Z` -> its epoch milliseconds (the microseconds cut, as Excel keeps ms). */
const msOf = (iso: string): number => Date.parse(iso.replace(/(\.\d{3})\d{3}Z$/, '$1Z'));

async function runJob(server: TestServer, key: string, body: Record<string, unknown>): Promise<number> {
  const res = await server.request(REPLIES, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, res.text).toBe(200);
  return (res.json() as { job_id: number }).job_id;
}

async function fileOf(server: TestServer, key: string, jobId: number): Promise<Buffer> {
  const status = (await server.request(`/jobs/${jobId}`, { key })).json() as { status: string; result: { datafile_url: string } };
  expect(status.status).toBe('success');
  return Buffer.from(await (await fetch(status.result.datafile_url)).arrayBuffer());
}

describe('xlsx that feels native', () => {
  it('writes date-times in UTC, a frozen bold header with an autofilter, widths, text ids and unaltered text', { timeout: 180_000 }, async () => {
    const engine = testEngine();
    writeConversation(engine.db, 12, 4);
    // One reply with a fraction of a second, by an author whose account has one too.
    upsertTweet(engine.db, {
      id_str: '1850000000000900001', tweet_created_at: '2025-03-04T05:06:07.123456Z', full_text: '=1+1 is two, said the reply', text: null, lang: 'en',
      user: { id_str: '9100000000000000009', screen_name: 'fraction', name: 'Fraction', created_at: '2019-02-03T04:05:06.789000Z' },
      in_reply_to_status_id_str: ROOT_ID.toString(), in_reply_to_user_id_str: '9100000000000000001', in_reply_to_screen_name: 'user0',
      quoted_status_id_str: null, is_quote_status: false, favorite_count: 4, retweet_count: 0, quote_count: 0, reply_count: 0,
      entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] },
    }, { retrievedAtMs: 1 });
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { batchRows: 5 });
    const jsonJob = await runJob(server, key, { output_format: 'json' });
    const xlsxJob = await runJob(server, key, { output_format: 'xlsx' });
    await runner.idle();
    const posts = JSON.parse((await fileOf(server, key, jsonJob)).toString('utf8')) as JsonPost[];
    const buf = await fileOf(server, key, xlsxJob);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(buf as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('tweets')!;
    expect(sheet.rowCount).toBe(posts.length + 1);

    // The header: the CSV's column names unchanged, bold, frozen, filtered over every row.
    const header = sheet.getRow(1);
    expect(COLUMNS.map((_, i) => header.getCell(i + 1).value)).toEqual(COLUMNS.map((c) => c.name));
    expect(header.getCell(1).font).toMatchObject({ bold: true });
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe(`A1:AH${posts.length + 1}`);
    expect(COLUMNS.length).toBe(34); // AH: update the range above if columns are appended
    for (const name of ['tweet_created_at', 'user_created_at']) {
      expect(String(header.getCell(col(name)).note)).toMatch(/^UTC\./);
    }

    // Widths: ids 21, timestamps 24, the post's text 60; none narrower than its header and filter button.
    const width = (name: string) => sheet.getColumn(col(name)).width;
    expect(width('id_str')).toBe(21);
    expect(width('tweet_created_at')).toBe(24);
    expect(width('full_text')).toBe(60);
    for (const c of COLUMNS) expect(width(c.name), c.name).toBeGreaterThanOrEqual(c.name.length + 3);

    // Every row against the JSON export: ids as text, timestamps as dates to the millisecond, text as posted.
    const byId = new Map(posts.map((p) => [p.id_str, p]));
    let fraction = 0;
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const id = row.getCell(col('id_str'));
      expect(id.type).toBe(ExcelJS.ValueType.String);
      const post = byId.get(id.value as string)!;
      expect(post).toBeDefined();
      expect(row.getCell(col('user_id_str')).value).toBe(post.user.id_str);
      expect(row.getCell(col('user_id_str')).type).toBe(ExcelJS.ValueType.String);
      for (const [name, iso] of [['tweet_created_at', post.tweet_created_at], ['user_created_at', post.user.created_at]] as const) {
        const cell = row.getCell(col(name));
        expect(cell.type, name).toBe(ExcelJS.ValueType.Date);
        expect(cell.value).toBeInstanceOf(Date);
        expect((cell.value as Date).getTime(), `${name} ${iso}`).toBe(msOf(iso));
        expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss "UTC"');
      }
      expect(row.getCell(col('full_text')).value).toBe(post.full_text);
      expect(row.getCell(col('favorite_count')).value).toBe(post.favorite_count);
      if (post.id_str === '1850000000000900001') {
        fraction += 1;
        expect((row.getCell(col('tweet_created_at')).value as Date).toISOString()).toBe('2025-03-04T05:06:07.123Z');
        expect((row.getCell(col('user_created_at')).value as Date).toISOString()).toBe('2019-02-03T04:05:06.789Z');
      }
    }
    expect(fraction).toBe(1);
    // Replies beginning with = + - @ and a tab, exactly as posted: no apostrophe in an XLSX.
    const texts = posts.map((p) => p.full_text);
    for (const start of ['=1+1', '=HYPERLINK(', '+1 agreed', '-minus', '@alice', '\ttab']) expect(texts.some((t) => t.startsWith(start)), start).toBe(true);

    // The Exports view's preview shows a date cell in UTC, as ISO 8601.
    const path = join(tempDir(), 'book.xlsx');
    writeFileSync(path, buf);
    const preview = await previewFile(path, 'xlsx', false, 3);
    expect(preview.rows[0]![col('tweet_created_at') - 1]).toBe(new Date(msOf(posts[0]!.tweet_created_at)).toISOString());
  });
});
