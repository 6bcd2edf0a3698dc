import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { logIn, screenshot } from '../helpers/browser';
import { builtCli } from '../helpers/skein-process';
import { demoApp } from '../helpers/demo-app';

// Wide tables in a narrow window (issue 15 "Tables"): scrolled sideways, each column title stays
// over its values and row backgrounds run to the last column; a row's actions stay in view; a
// full timestamp with its zone fits its column.

const left = async (l: Locator) => (await l.boundingBox())!.x;

describe('tables at 1024 px (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-table-');

  it('keeps titles over their columns when scrolled sideways, rows as wide as their columns, dates whole', async () => {
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'dark' }), app.skein);
    await page.goto(`${app.skein.url}/#/search?q=${encodeURIComponent('lang:en')}`);
    const table = page.getByRole('table', { name: 'Search results' });
    await table.locator('.body-row').first().waitFor();
    const body = table.getByTestId('table-body');
    const scrollable = await body.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(scrollable).toBeGreaterThan(0); // the columns are wider than a 1024 px window leaves
    await body.evaluate((el) => el.scrollTo(el.scrollWidth, 0));
    const views = table.getByRole('columnheader', { name: 'Views' });
    const firstRow = table.locator('.body-row').first();
    const lastCell = firstRow.getByRole('cell').last();
    expect(Math.abs((await left(views)) - (await left(lastCell)))).toBeLessThan(1);
    const row = (await firstRow.boundingBox())!;
    const cell = (await lastCell.boundingBox())!;
    expect(row.x + row.width).toBeGreaterThanOrEqual(cell.x + cell.width - 1);
    // The timestamp is whole (with its zone), not cut with an ellipsis.
    const posted = firstRow.getByRole('cell').first();
    expect(await posted.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await posted.textContent()).toMatch(/ (UTC|GMT[+-]\d+)$/);
    await screenshot(page, 'table-scrolled-1024-dark');
    await page.close();
  });

  it("keeps a job's actions in view at the right edge", async () => {
    const created = spawnSync(process.execPath, [builtCli, 'keys', 'create', '--name', 'script', '--credits', '1000', '--json', '--data-dir', app.dataDir], { encoding: 'utf8' });
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const job = await fetch(`${app.skein.url}/social/search/asyncJob`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'lang:en', max_count: 5, output_format: 'csv' }),
    });
    expect(job.status).toBe(200);
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1024, height: 800 } }), app.skein);
    await page.goto(`${app.skein.url}/#/jobs`);
    const file = page.getByRole('link', { name: 'File' }).first();
    await file.waitFor({ timeout: 20_000 });
    const box = (await file.boundingBox())!;
    const table = (await page.getByRole('table', { name: 'Jobs' }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(table.x + table.width);
    expect(box.x).toBeGreaterThanOrEqual(table.x);
    await screenshot(page, 'jobs-actions-1024');
    await page.close();
  });
});
