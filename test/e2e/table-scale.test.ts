import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// The 100,000-row table (#/dev/table, the rows bench/table.bench.ts scrolls) with rows made when
// shown and sorted as indices (components/table/): it follows a scroll from the first frame,
// sorts the whole 100,000 rows as TanStack Table does (numbers start descending, text
// ascending, ties in their original order), reaches the last row, and redraws its rows when a
// column is hidden.

const ROWS = 100_000;
// The bench page's rows (views/dev/TableBenchView.tsx).
const idOf = (i: number) => (1_900_000_000_000_000_000n + BigInt(i)).toString();
const likesOf = (i: number) => (i * 13) % 1_009;

describe('a 100,000-row table (headless mode)', () => {
  const app = demoApp('skein-e2e-table-scale-', ['--no-demo']);

  async function open(): Promise<Page> {
    const context = await app.browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await logIn(await context.newPage(), app.skein);
    await page.goto(`${app.skein.url}/#/dev/table?rows=${ROWS}`);
    await page.getByRole('table', { name: 'Benchmark rows' }).locator('.body-row').first().waitFor({ timeout: 60_000 });
    return page;
  }

  const firstRow = (page: Page) => page.getByRole('table', { name: 'Benchmark rows' }).locator('.body-row[aria-rowindex="1"]');
  const cells = async (page: Page) => (await firstRow(page).getByRole('cell').allTextContents()).map((t) => t.trim());

  it('follows a scroll as soon as it has painted, with no other event first', async () => {
    const page = await open();
    const table = page.getByRole('table', { name: 'Benchmark rows' });
    expect(await table.getAttribute('aria-rowcount')).toBe(String(ROWS));
    await table.getByTestId('table-body').evaluate((el) => ((el as unknown as { scrollTop: number }).scrollTop = 2000));
    await table.locator('.body-row[aria-rowindex="50"]').waitFor();
    expect(await table.locator('.body-row[aria-rowindex="1"]').count()).toBe(0);
    await page.context().close();
  });

  it('sorts all the rows as TanStack Table does, and reaches the last one', async () => {
    const page = await open();
    const table = page.getByRole('table', { name: 'Benchmark rows' });
    const likes = table.getByRole('columnheader', { name: 'Likes' });
    const when = table.getByRole('columnheader', { name: 'When' });

    // A number column sorts descending first; of the rows with the most likes (1,008), the first in
    // the data comes first.
    await likes.getByRole('button').click();
    await expect.poll(() => likes.getAttribute('aria-sort')).toBe('descending');
    let top = 0;
    while (likesOf(top) !== 1_008) top++;
    await expect.poll(() => cells(page)).toEqual([idOf(top), expect.any(String), expect.any(String), expect.any(String), '1008']);
    await screenshot(page, 'table-100k-sorted-likes');

    // Then ascending: 0 likes, row 0 first, then row 1,009.
    await likes.getByRole('button').click();
    await expect.poll(() => likes.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => cells(page).then((c) => c[0])).toBe(idOf(0));
    expect((await table.locator('.body-row[aria-rowindex="2"]').getByRole('cell').first().textContent())?.trim()).toBe(idOf(1_009));

    // A text column sorts ascending first; the second click puts the latest time on top.
    await when.getByRole('button').click();
    await expect.poll(() => when.getAttribute('aria-sort')).toBe('ascending');
    await when.getByRole('button').click();
    await expect.poll(() => when.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => cells(page).then((c) => c[0])).toBe(idOf(ROWS - 1));

    // End reaches the 100,000th row of that order: the earliest.
    await table.getByTestId('table-body').focus();
    await page.keyboard.press('End');
    const last = table.locator(`.body-row[aria-rowindex="${ROWS}"]`);
    await last.waitFor();
    expect((await last.getByRole('cell').first().textContent())?.trim()).toBe(idOf(0));
    await page.context().close();
  });

  it('draws its rows again when a column is hidden or shown', async () => {
    const page = await open();
    const table = page.getByRole('table', { name: 'Benchmark rows' });
    expect(await cells(page)).toHaveLength(5);
    await table.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('group', { name: 'Columns shown' }).getByLabel('Replies').uncheck();
    await expect.poll(() => cells(page)).toEqual([idOf(0), expect.any(String), expect.any(String), String(likesOf(0))]);
    await page.getByRole('group', { name: 'Columns shown' }).getByLabel('Replies').check();
    await expect.poll(() => cells(page).then((c) => c.length)).toBe(5);
    await page.context().close();
  });
});
