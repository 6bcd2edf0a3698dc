import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseString } from '@fast-csv/parse';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// The CSV dialect in the app (issue 16): Settings > CSV files picks what the job form starts with
// (excel unless changed), the form shows the choice beside the file format and each job can take
// the other one. Two reply jobs over the demo corpus's large conversation, whose replies begin with
// "@": the plain file keeps them as posted without a BOM, the excel one has the BOM and "'@".

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function readCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString(text, { headers: false })
      .on('error', reject)
      .on('data', (r: string[]) => rows.push(r))
      .on('end', () => resolve(rows));
  });
}

describe('CSV for Excel or for pandas and R, in the app (headless mode)', () => {
  const app = demoApp('skein-e2e-csv-');
  let root: string;

  beforeAll(async () => {
    const db = new Database(join(app.dataDir, 'skein.db'), { readonly: true });
    root = (JSON.parse(db.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string) as { large_conversation_root: { id_str: string } })
      .large_conversation_root.id_str;
    db.close();
  });

  /** Starts a reply job for the large conversation in CSV and returns its file's texts once it succeeds. */
  async function runCsvJob(page: Page, dialect: 'excel' | 'plain'): Promise<{ buf: Buffer; texts: string[]; row: string }> {
    await page.getByLabel('CSV dialect').selectOption(dialect);
    await expect.poll(() => page.getByTestId('credit-hold').textContent()).toMatch(/Holds/);
    const before = await page.locator('[aria-label="Jobs"] .body-row').count();
    await page.getByRole('button', { name: 'Start job' }).click();
    await expect.poll(() => page.locator('[aria-label="Jobs"] .body-row').count()).toBe(before + 1);
    const row = page.locator('[aria-label="Jobs"] .body-row').first();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('success');
    const jobId = (await row.locator('[role=cell]').first().textContent())!.trim();
    const buf = readFileSync(join(app.dataDir, 'exports', `replies-${root}-job${jobId}.csv`));
    const rows = await readCsv(buf.subarray(buf.subarray(0, 3).equals(BOM) ? 3 : 0).toString('utf8'));
    const text = rows[0]!.indexOf('full_text');
    return { buf, texts: rows.slice(1).map((r) => r[text]!), row: (await row.textContent()) ?? '' };
  }

  it('starts the form with the setting, lets each job choose, and writes each dialect', { timeout: 180_000 }, async () => {
    const context = await app.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await logIn(await context.newPage(), app.skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));

    // The setting: excel until changed, then plain, kept across a reload.
    await page.goto(`${app.skein.url}/#/settings`);
    const section = page.getByRole('region', { name: 'CSV files' });
    await expect.poll(() => section.getByLabel('For Excel').isChecked()).toBe(true);
    await section.getByText('For pandas and R (plain)').click(); // the label: its radio is drawn as a segment
    await page.reload();
    await expect.poll(() => page.getByRole('region', { name: 'CSV files' }).getByLabel('For pandas and R (plain)').isChecked()).toBe(true);
    await page.getByRole('region', { name: 'CSV files' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-csv-dialect-1440-light');

    // The form: no dialect for JSON; with CSV it starts at the setting.
    await page.goto(`${app.skein.url}/#/jobs?new=replies&tweet_id=${root}`);
    await page.getByLabel('File format').waitFor();
    expect(await page.getByLabel('CSV dialect').count()).toBe(0);
    await page.getByLabel('File format').selectOption('csv');
    expect(await page.getByLabel('CSV dialect').inputValue()).toBe('plain');
    await expect.poll(() => page.locator('.job-form').textContent()).toContain('csv_dialect=plain: every text exactly as posted');
    await screenshot(page, 'jobs-csv-dialect-1440-light');

    const plain = await runCsvJob(page, 'plain');
    expect(plain.buf.subarray(0, 3).equals(BOM)).toBe(false);
    expect(plain.row).toContain('csv · plain');
    const replies = plain.texts.filter((t) => t.startsWith('@'));
    expect(replies.length).toBeGreaterThan(0);
    expect(plain.texts.some((t) => t.startsWith("'"))).toBe(false);
    await screenshot(page, 'jobs-csv-plain-done-1440-light');

    // The other dialect for one job, whatever the setting.
    const excel = await runCsvJob(page, 'excel');
    expect(excel.buf.subarray(0, 3).equals(BOM)).toBe(true);
    expect(excel.texts.filter((t) => t.startsWith("'@")).length).toBe(replies.length);
    expect(excel.texts.map((t) => t.replace(/^'(?=[=+\-@\t\r])/, ''))).toEqual(plain.texts);
    await context.close();
  });

  it('shows the excel default in dark mode at 1024 px', { timeout: 60_000 }, async () => {
    const dark = await app.browser.newContext({ viewport: { width: 1024, height: 800 }, colorScheme: 'dark' });
    const page = await logIn(await dark.newPage(), app.skein);
    await page.goto(`${app.skein.url}/#/jobs?new=replies&tweet_id=${root}`);
    await page.getByLabel('File format').selectOption('csv');
    expect(await page.getByLabel('CSV dialect').inputValue()).toBe('excel');
    await expect.poll(() => page.locator('.job-form').textContent()).toContain('csv_dialect=excel');
    await screenshot(page, 'jobs-csv-dialect-1024-dark');
    await page.goto(`${app.skein.url}/#/settings`);
    const section = page.getByRole('region', { name: 'CSV files' });
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-csv-dialect-1024-dark');
    await dark.close();
  });
});
