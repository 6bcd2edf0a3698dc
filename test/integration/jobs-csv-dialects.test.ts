import { parseString } from '@fast-csv/parse';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { getJob } from '../../src/main/engine/jobs';
import { COLUMNS } from '../../src/main/engine/jobs/writers/columns';
import { csvLine, neutralise, TEXT_COLUMNS } from '../../src/main/engine/jobs/writers/csv';
import { apiKey } from '../fixtures/api-corpus';
import { unzipSingle } from '../fixtures/data-files';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer, type TestServer } from '../helpers/http';

// csv_dialect (issue 16): `plain` for pandas and R (no BOM, no formula guard, RFC 4180 with
// CRLF), `excel` for Excel (BOM, CRLF, the guard), excel when not given. Real jobs over real HTTP
// with the runner's worker threads; each file fetched from its datafile_url and read back with
// fast-csv (a full RFC 4180 reader, the one exceljs uses) and compared with the JSON export of
// the same rows. The conversation's replies begin with "=HYPERLINK(", "+1", "-minus", "@alice"
// and a tab: what the guard changes.

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const col = (name: string) => COLUMNS.findIndex((c) => c.name === name);
const REPLIES = `/social/tweets/${ROOT_ID}/comments/asyncJob`;

function readCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString(text, { headers: false })
      .on('error', reject)
      .on('data', (r: string[]) => rows.push(r))
      .on('end', () => resolve(rows));
  });
}

interface Done {
  jobId: number;
  result: { datafile_url: string; output_format: string; csv_dialect?: string; is_compressed: boolean };
}

async function start(server: TestServer, key: string, path: string, init: RequestInit = {}): Promise<number> {
  const res = await server.request(path, { method: 'POST', key, ...init });
  expect(res.status, res.text).toBe(200);
  return (res.json() as { job_id: number }).job_id;
}

async function finished(server: TestServer, key: string, jobId: number): Promise<Done> {
  const res = await server.request(`/jobs/${jobId}`, { key });
  const body = res.json() as { status: string } & Omit<Done, 'jobId'>;
  expect(body.status, res.text).toBe('success');
  return { jobId, result: body.result };
}

async function fileOf(done: Done): Promise<Buffer> {
  const res = await fetch(done.result.datafile_url);
  expect(res.status).toBe(200);
  const buf = Buffer.from(await res.arrayBuffer());
  return done.result.is_compressed ? (await unzipSingle(buf)).data : buf;
}

const json = (body: Record<string, unknown>): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('csv_dialect: plain for pandas and R, excel for Excel', () => {
  it('plain keeps every text as posted, without a BOM; excel, also the default, starts with a BOM and guards formulas', { timeout: 180_000 }, async () => {
    const engine = testEngine();
    writeConversation(engine.db, 12, 4);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { batchRows: 5 });

    const ids = {
      json: await start(server, key, REPLIES, json({ output_format: 'json' })),
      plain: await start(server, key, REPLIES, json({ output_format: 'csv', csv_dialect: 'plain' })),
      // Case-insensitive like output_format, and from the query string.
      excel: await start(server, key, `${REPLIES}?output_format=csv&csv_dialect=EXCEL`),
      // A form body without csv_dialect: the default.
      byDefault: await start(server, key, REPLIES, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'output_format=csv' }),
      plainZip: await start(server, key, REPLIES, json({ output_format: 'csv', csv_dialect: 'plain', compress: true })),
      excelZip: await start(server, key, REPLIES, json({ output_format: 'csv', compress: true })),
    };
    await runner.idle();
    const done = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, await finished(server, key, id)] as const))) as Record<keyof typeof ids, Done>;
    expect(done.plain.result.csv_dialect).toBe('plain');
    expect(done.excel.result.csv_dialect).toBe('excel');
    expect(done.byDefault.result.csv_dialect).toBe('excel');
    expect(done.json.result.csv_dialect).toBeUndefined();
    // Stored with the job's parameters (no column of its own).
    expect(JSON.parse(getJob(engine.db, ids.plain)!.params_json)).toMatchObject({ csv_dialect: 'plain' });

    const posts = JSON.parse((await fileOf(done.json)).toString('utf8')) as { id_str: string; full_text: string; user: { name: string; description: string } }[];
    const byId = new Map(posts.map((p) => [p.id_str, p]));

    // plain: no BOM, RFC 4180 with CRLF: the file is exactly its rows written again with CRLF.
    const plainBuf = await fileOf(done.plain);
    expect(plainBuf.subarray(0, 3).equals(BOM)).toBe(false);
    expect(plainBuf.subarray(0, 7).toString()).toBe('id_str,');
    const plainText = plainBuf.toString('utf8');
    const plain = await readCsv(plainText);
    expect(plain[0]).toEqual(COLUMNS.map((c) => c.name));
    expect(plain.map((r) => csvLine(r, 'plain')).join('')).toBe(plainText);
    expect(plainText.endsWith('\r\n')).toBe(true);
    const rows = plain.slice(1);
    expect(rows.map((r) => r[col('id_str')])).toEqual(posts.map((p) => p.id_str));
    for (const r of rows) {
      const p = byId.get(r[col('id_str')]!)!;
      expect(r[col('full_text')]).toBe(p.full_text);
      expect(r[col('user_name')]).toBe(p.user.name);
    }
    const texts = rows.map((r) => r[col('full_text')]!);
    const startsWith = (s: string) => texts.filter((t) => t.startsWith(s));
    expect(startsWith('@alice mentioned first').length).toBeGreaterThan(0);
    expect(startsWith('=HYPERLINK("http://evil.example","click")').length).toBeGreaterThan(0);
    expect(startsWith('\ttab first').length).toBeGreaterThan(0);
    expect(texts.some((t) => t.startsWith("'"))).toBe(false);
    // Every reply's in_reply_to_screen_name, text columns all, never prefixed.
    for (const r of rows) for (let c = 0; c < r.length; c++) if (TEXT_COLUMNS[c]) expect(r[c]!.startsWith("'"), COLUMNS[c]!.name).toBe(false);

    // excel: BOM, then the same rows, each text cell guarded; everything else unchanged.
    const excelBuf = await fileOf(done.excel);
    expect(excelBuf.subarray(0, 3).equals(BOM)).toBe(true);
    const excelText = excelBuf.subarray(3).toString('utf8');
    const excel = await readCsv(excelText);
    expect(excel.map((r) => csvLine(r, 'plain')).join('')).toBe(excelText); // CRLF, RFC 4180
    expect(excel.length).toBe(plain.length);
    excel.forEach((r, i) => r.forEach((cell, c) => expect(cell).toBe(i > 0 && TEXT_COLUMNS[c] ? neutralise(plain[i]![c]!) : plain[i]![c])));
    const excelTexts = excel.slice(1).map((r) => r[col('full_text')]!);
    expect(excelTexts.filter((t) => t.startsWith("'@alice mentioned first")).length).toBe(startsWith('@alice mentioned first').length);
    expect(excelTexts.filter((t) => t.startsWith(`'=HYPERLINK(`)).length).toBe(startsWith('=HYPERLINK(').length);
    expect(excel.slice(1).map((r) => r[col('id_str')])).toEqual(posts.map((p) => p.id_str));

    // Without csv_dialect: the excel file, byte for byte. Compressed: the same bytes in the zip.
    expect((await fileOf(done.byDefault)).equals(excelBuf)).toBe(true);
    expect((await fileOf(done.excelZip)).equals(excelBuf)).toBe(true);
    expect((await fileOf(done.plainZip)).equals(plainBuf)).toBe(true);
  });

  it('refuses an unknown dialect, and a dialect for a file that is not CSV, with 422 naming csv_dialect', async () => {
    const engine = testEngine();
    writeConversation(engine.db, 3, 0);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const cases: [string, string, RegExp][] = [
      [REPLIES, 'output_format=csv&csv_dialect=tsv', /expected excel or plain, got 'tsv'/],
      [REPLIES, 'csv_dialect=plain', /applies to output_format=csv only, and this job writes json/],
      [REPLIES, 'output_format=xlsx&csv_dialect=excel', /applies to output_format=csv only, and this job writes xlsx/],
      ['/social/search/asyncJob', 'query=foxes&output_format=json&csv_dialect=plain', /this job writes json/],
      ['/social/search/asyncJob', 'query=foxes&output_format=csv&csv_dialect=', /./],
    ];
    for (const [path, qs, message] of cases.slice(0, 4)) {
      const res = await server.request(`${path}?${qs}`, { method: 'POST', key });
      expect(res.status, qs).toBe(422);
      const body = res.json() as { status: string; message: string };
      expect(body.status).toBe('error');
      expect(body.message, qs).toContain("'csv_dialect'");
      expect(body.message, qs).toMatch(message);
    }
    expect(engine.db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 0 });
    // An empty value is "not given", as for every other parameter.
    const [path, qs] = cases[4]!;
    expect((await server.request(`${path}?${qs}`, { method: 'POST', key })).status).toBe(200);
  });

  it('the app starts a plain CSV job, lists it as plain, and a retry keeps the dialect', async () => {
    const engine = testEngine();
    writeConversation(engine.db, 3, 0);
    const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
    const h = app.handlers;
    const { job_id } = await h['jobs.create']({ kind: 'replies', tweet_id: ROOT_ID.toString(), output_format: 'csv', csv_dialect: 'plain' });
    expect((await h['jobs.get']({ job_id })).params).toMatchObject({ output_format: 'csv', csv_dialect: 'plain' });
    await h['jobs.cancel']({ job_id });
    const retried = await h['jobs.retry']({ job_id });
    expect((await h['jobs.get']({ job_id: retried.job_id })).params).toMatchObject({ output_format: 'csv', csv_dialect: 'plain' });
    const json = await h['jobs.create']({ kind: 'replies', tweet_id: ROOT_ID.toString(), output_format: 'json' });
    expect((await h['jobs.get']({ job_id: json.job_id })).params).not.toHaveProperty('csv_dialect');
    app.close();
  });
});
