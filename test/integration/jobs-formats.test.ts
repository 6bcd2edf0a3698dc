import { describe, expect, it } from 'vitest';
import { testRunner } from '../fixtures/job-runner';
import { COLUMNS } from '../../src/main/engine/jobs/writers/columns';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey } from '../fixtures/api-corpus';
import { parseCsv, readXlsx, unzipSingle } from '../fixtures/data-files';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// Both job kinds in each format, compressed and not, over real HTTP with the runner's worker
// threads: the data file is fetched from its datafile_url without a key, read back, and its rows
// compared with the store.

type Format = 'json' | 'csv' | 'xlsx';

async function setup() {
  const engine = testEngine();
  const convo = writeConversation(engine.db, 12, 4);
  const key = apiKey(engine);
  const server = await startServer(engine);
  const runner = testRunner(engine, { batchRows: 5 });
  return { engine, convo, key, server, runner };
}

async function fetchFile(url: string, compressed: boolean): Promise<{ buf: Buffer; contentType: string | null; disposition: string | null }> {
  const res = await fetch(url); // no key: the URL is the capability
  expect(res.status).toBe(200);
  let buf: Buffer = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type');
  const disposition = res.headers.get('content-disposition');
  if (compressed) {
    const inner = await unzipSingle(buf);
    expect(inner.entries).toBe(1);
    buf = inner.data;
  }
  return { buf, contentType, disposition };
}

/** The id_str column (or field) of each row of a data file. */
async function idsOf(buf: Buffer, format: Format): Promise<{ ids: string[]; wallets: string[]; texts: string[] }> {
  if (format === 'json') {
    const text = buf.toString('utf8');
    const rows = JSON.parse(text) as { id_str: string; wallet_address?: string; full_text: string }[];
    // The numeric id is printed exactly (JSON.parse would round it, so check the text).
    for (const r of rows) expect(text).toContain(`"id":${r.id_str},"id_str":"${r.id_str}"`);
    return { ids: rows.map((r) => r.id_str), wallets: rows.map((r) => r.wallet_address ?? ''), texts: rows.map((r) => r.full_text) };
  }
  const idx = (name: string) => COLUMNS.findIndex((c) => c.name === name);
  if (format === 'csv') {
    const text = buf.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual(COLUMNS.map((c) => c.name));
    return { ids: rows.map((r) => r[idx('id_str')]!), wallets: rows.map((r) => r[idx('wallet_address')]!), texts: rows.map((r) => r[idx('full_text')]!) };
  }
  const book = await readXlsx(buf);
  const [header, ...rows] = book.rows;
  expect(header).toEqual(COLUMNS.map((c) => c.name));
  // Ids are text cells (ExcelJS ValueType.String = 3), never numbers Excel would round.
  if (rows.length) expect(book.cellTypes.get(`tweets:${idx('id_str') + 1}`)).toBe(3);
  const cell = (r: unknown[], i: number) => (r[i] === undefined || r[i] === null ? '' : String(r[i]));
  return { ids: rows.map((r) => cell(r, idx('id_str'))), wallets: rows.map((r) => cell(r, idx('wallet_address'))), texts: rows.map((r) => cell(r, idx('full_text'))) };
}

describe('jobs over HTTP: every kind, format and compression', () => {
  it('writes the rows of the store, newest first, in each format', { timeout: 180_000 }, async () => {
    const { convo, key, server, runner } = await setup();
    const cases: { kind: 'replies' | 'search'; format: Format; compress: boolean }[] = [];
    for (const kind of ['replies', 'search'] as const)
      for (const format of ['json', 'csv', 'xlsx'] as const) for (const compress of [false, true]) cases.push({ kind, format, compress });

    const jobs: { c: (typeof cases)[number]; jobId: number }[] = [];
    for (const c of cases) {
      const path = c.kind === 'replies' ? `/social/tweets/${ROOT_ID}/comments/asyncJob` : '/social/search/asyncJob';
      const body = c.kind === 'replies' ? { output_format: c.format, compress: c.compress } : { query: 'foxes', max_count: 100, output_format: c.format, compress: c.compress };
      const res = await server.request(path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const answer = res.json() as { status: string; job_id: number };
      expect(answer.status).toBe('success');
      expect(Number.isInteger(answer.job_id)).toBe(true);
      jobs.push({ c, jobId: answer.job_id });
    }
    await runner.idle();

    for (const { c, jobId } of jobs) {
      const res = await server.request(`/jobs/${jobId}`, { key });
      expect(res.status).toBe(200);
      const status = res.json() as { job_id: number; status: string; result: { is_compressed: boolean; datafile_url: string; file_name: string; rows: number } };
      expect(status.job_id).toBe(jobId);
      expect(status.status, res.text).toBe('success');
      expect(status.result.is_compressed).toBe(c.compress);
      const name = c.kind === 'replies' ? `replies-${ROOT_ID}-job${jobId}.${c.format}` : `search-job${jobId}.${c.format}`;
      expect(status.result.file_name).toBe(c.compress ? `${name}.zip` : name);
      expect(status.result.datafile_url).toBe(`${server.url}/datafiles/${status.result.datafile_url.split('/')[4]}/${status.result.file_name}`);

      const file = await fetchFile(status.result.datafile_url, c.compress);
      expect(file.disposition).toBe(`attachment; filename="${status.result.file_name}"`);
      const { ids, wallets } = await idsOf(file.buf, c.format);
      const expected = c.kind === 'replies' ? convo.expected : [...convo.others].reverse();
      expect(ids, `${c.kind} ${c.format} ${c.compress}`).toEqual(expected.map(String));
      expect(status.result.rows).toBe(expected.length);
      if (c.kind === 'replies') {
        const i = ids.indexOf(String(convo.level2[0]));
        expect(wallets[i]).toBe('0xAbCdEf0123456789AbCdEf0123456789AbCdEf01');
        const j = ids.indexOf(String(convo.level1[5]));
        expect(wallets[j]).toBe('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
        expect(wallets[ids.indexOf(String(convo.level1[6]))]).toBe('');
      }
    }
    await runner.stop();
  });
});
