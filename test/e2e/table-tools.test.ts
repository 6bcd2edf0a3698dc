import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Every table's tools (issue 15 "Tables"): columns shown and hidden with Columns, widths set by
// dragging a column's edge, both remembered per table across a reload; a row's menu copies its id
// or the row as JSON; a sort of an infinite list says it is of the loaded rows only.

describe('table tools (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-table-tools-');

  async function searchPage(width: number, height: number, colorScheme: 'light' | 'dark'): Promise<Page> {
    const context = await app.browser.newContext({ viewport: { width, height }, colorScheme, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await logIn(await context.newPage(), app.skein);
    await page.goto(`${app.skein.url}/#/search?q=${encodeURIComponent('lang:en')}`);
    await page.getByRole('table', { name: 'Search results' }).locator('.body-row').first().waitFor();
    return page;
  }

  it('shows and hides columns and keeps widths set by hand, per table, across a reload', async () => {
    const page = await searchPage(1440, 900, 'light');
    const table = page.getByRole('table', { name: 'Search results' });
    const header = (name: string) => table.getByRole('columnheader', { name, exact: true });
    expect(await header('Id').count()).toBe(0); // hidden until asked for
    await table.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.getByRole('group', { name: 'Columns shown' });
    await chooser.getByLabel('Id').check();
    await chooser.getByLabel('Likes').uncheck();
    await screenshot(page, 'table-columns-1440-light');
    await page.keyboard.press('Escape');
    expect(await header('Id').count()).toBe(1);
    expect(await header('Likes').count()).toBe(0);
    const firstId = await table.locator('.body-row').first().getByRole('cell').last().textContent();
    expect(firstId).toMatch(/^\d{15,20}$/);

    const author = header('Author');
    const before = (await author.boundingBox())!.width;
    const edge = (await author.locator('.col-resizer').boundingBox())!;
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width / 2 + 100, edge.y + edge.height / 2, { steps: 5 });
    await page.mouse.up();
    const widened = (await author.boundingBox())!.width;
    expect(widened).toBeGreaterThan(before + 90);

    await page.reload();
    await table.locator('.body-row').first().waitFor();
    expect(await header('Id').count()).toBe(1);
    expect(await header('Likes').count()).toBe(0);
    expect(Math.abs((await author.boundingBox())!.width - widened)).toBeLessThan(2);
    // Another table keeps its own layout: a timeline has its Likes and no Id.
    const someone = await table.locator('.body-row').first().getByRole('cell').nth(1).textContent();
    expect(someone).toBeTruthy();

    // Double-click on the edge: the default width again; Reset: every column as the table says.
    await author.locator('.col-resizer').dblclick();
    expect(Math.abs((await author.boundingBox())!.width - before)).toBeLessThan(2);
    await table.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('button', { name: 'Reset widths and columns' }).click();
    expect(await header('Id').count()).toBe(0);
    expect(await header('Likes').count()).toBe(1);
    await page.context().close();
  });

  it("copies a row's id and the row as JSON from its menu, and Ctrl+C copies the active row's id", async () => {
    const page = await searchPage(1024, 700, 'dark');
    const table = page.getByRole('table', { name: 'Search results' });
    const rows = table.locator('.body-row');
    const clipboard = () => page.evaluate('navigator.clipboard.readText()') as Promise<string>;
    await rows.nth(1).click({ button: 'right' });
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await screenshot(page, 'table-row-menu-1024-dark');
    await menu.getByRole('menuitem', { name: 'Copy id' }).click();
    const id = await clipboard();
    expect(id).toMatch(/^\d{15,20}$/);
    expect(await menu.count()).toBe(0);

    await rows.nth(1).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy row as JSON' }).click();
    const row = JSON.parse(await clipboard()) as { id_str: string; full_text: string; user: { screen_name: string } };
    expect(row.id_str).toBe(id);
    expect(typeof row.full_text).toBe('string');

    await rows.nth(0).click();
    await page.getByRole('heading').first().waitFor();
    await page.goBack();
    await rows.first().waitFor();
    await table.getByTestId('table-body').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ControlOrMeta+c');
    expect(await clipboard()).toMatch(/^\d{15,20}$/);
    await page.context().close();
  });

  it('says that a sort of a list still loading is of the rows loaded so far, and clears it', async () => {
    const page = await searchPage(1440, 900, 'light');
    const table = page.getByRole('table', { name: 'Search results' });
    expect(await table.getByRole('note').count()).toBe(0);
    await table.getByRole('columnheader', { name: 'Likes' }).getByRole('button').click();
    const note = table.getByRole('note');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Sorted among the [\d,]+ rows loaded so far, not the whole result/);
    await screenshot(page, 'table-sort-note-1440-light');
    await note.getByRole('button', { name: 'Clear sort' }).click();
    expect(await table.getByRole('note').count()).toBe(0);
    await page.context().close();
  });
});
