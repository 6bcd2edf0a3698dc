import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// GEXF and Parquet in the app (issue 16), against the built `skein serve`, whose job worker loads
// DuckDB on first use: the job form offers both with a line on what each is for, and for GEXF the
// timeline's slices; each job reaches success over the demo corpus's large conversation, the job
// list names the file, and Exports previews it (a GEXF file's nodes, a Parquet file's rows).

describe('GEXF and Parquet from the job form (headless mode)', () => {
  const app = demoApp('skein-e2e-formats-');
  let page: Page;
  let root: string;

  beforeAll(async () => {
    page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const db = new Database(join(app.dataDir, 'skein.db'), { readonly: true });
    root = (JSON.parse(db.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string) as { large_conversation_root: { id_str: string } })
      .large_conversation_root.id_str;
    db.close();
  });

  async function startAndFinish(): Promise<{ jobId: string; row: string }> {
    await expect.poll(() => page.getByTestId('credit-hold').textContent()).toMatch(/Holds/);
    const before = await page.locator('[aria-label="Jobs"] .body-row').count();
    await page.getByRole('button', { name: 'Start job' }).click();
    await expect.poll(() => page.locator('[aria-label="Jobs"] .body-row').count()).toBe(before + 1);
    const row = page.locator('[aria-label="Jobs"] .body-row').first();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('success');
    return { jobId: (await row.locator('[role=cell]').first().textContent())!.trim(), row: (await row.textContent()) ?? '' };
  }

  async function preview(fileName: string): Promise<{ columns: string[]; firstRow: string[] }> {
    await page.goto(`${app.skein.url}/#/exports`);
    const file = page.locator('[aria-label="Export files"] .body-row', { hasText: fileName });
    await file.click();
    const previewRows = page.locator('[aria-label="File preview"] .body-row');
    await previewRows.first().waitFor();
    return {
      columns: await page.locator('[aria-label="File preview"] [role=columnheader]').allTextContents(),
      firstRow: await previewRows.first().locator('[role=cell]').allTextContents(),
    };
  }

  it('starts a GEXF job by day: the form says what the file is for, the list and Exports show it', { timeout: 180_000 }, async () => {
    await page.goto(`${app.skein.url}/#/jobs?new=replies&tweet_id=${root}`);
    await page.getByLabel('File format').selectOption('gexf');
    await expect.poll(() => page.locator('.job-form').textContent()).toContain("output_format=gexf: the posts' accounts as a network");
    expect(await page.getByLabel('GEXF timeline').inputValue()).toBe('static');
    await page.getByLabel('GEXF timeline').selectOption('day');
    await expect.poll(() => page.locator('.job-form').textContent()).toContain("gexf_dynamic=day: each edge appears on Gephi's timeline");
    await screenshot(page, 'jobs-gexf-form-1440-light');
    const { jobId, row } = await startAndFinish();
    expect(row).toContain('gexf · day');
    const name = `replies-${root}-job${jobId}.gexf`;
    const text = readFileSync(join(app.dataDir, 'exports', name), 'utf8');
    expect(text).toContain('mode="dynamic" timeformat="dateTime" timezone="UTC"');
    expect(text).toMatch(/<edge id="1" source="\d+" target="\d+" kind="(reply|mention|quote|retweet)" weight="\d+">/);
    const p = await preview(name);
    expect(p.columns).toEqual(['id', 'label', 'screen_name', 'name', 'followers_count', 'statuses_count', 'posts', 'in_corpus']);
    expect(p.firstRow[0]).toMatch(/^\d+$/);
    await screenshot(page, 'exports-gexf-preview-1440-light');
  });

  it('starts a Parquet job: its rows are previewed with the CSV columns, times in UTC', { timeout: 180_000 }, async () => {
    await page.goto(`${app.skein.url}/#/jobs?new=replies&tweet_id=${root}`);
    await page.getByLabel('File format').selectOption('parquet');
    await expect.poll(() => page.locator('.job-form').textContent()).toContain('output_format=parquet: the CSV columns, typed');
    expect(await page.getByLabel('GEXF timeline').count()).toBe(0);
    await screenshot(page, 'jobs-parquet-form-1440-light');
    const { jobId, row } = await startAndFinish();
    expect(row).toContain('parquet');
    const name = `replies-${root}-job${jobId}.parquet`;
    expect(readFileSync(join(app.dataDir, 'exports', name)).subarray(0, 4).toString()).toBe('PAR1');
    const p = await preview(name);
    expect(p.columns.slice(0, 3)).toEqual(['id_str', 'tweet_created_at', 'full_text']);
    expect(p.firstRow[0]).toMatch(/^\d{19}$/);
    expect(p.firstRow[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const download = await page.getByRole('link', { name: 'Download' }).first().getAttribute('href');
    const res = await fetch(new URL(download!, app.skein.url));
    expect(res.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    await screenshot(page, 'exports-parquet-preview-1440-light');
  });
});
