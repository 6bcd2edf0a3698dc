import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Search's recent and saved queries (issue 15 "Search to file"), in Chromium against headless
// mode: every search lands in the recent list, a query saved under a name survives a reload, a
// click runs either again, and a saved query can be deleted.

describe('saved and recent queries (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-queries-');

  it('keeps every search in the recent list, saves one under a name across a reload, and runs either again', async () => {
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    const search = async (query: string) => {
      await page.getByLabel('Query', { exact: true }).fill(query);
      await page.getByLabel('Query', { exact: true }).press('Enter');
      // The rows of the previous search are still on screen until the address says this one.
      await page.waitForURL((url) => new URLSearchParams(url.hash.split('?')[1] ?? '').get('q') === query);
      await page.getByRole('table', { name: 'Search results' }).locator('.body-row').first().waitFor();
    };
    await page.goto(`${app.skein.url}/#/search`);
    await search('lang:en');
    await search('#opendata');
    await search('lang:en'); // again: moves to the top, not listed twice

    await page.getByRole('button', { name: 'Save query' }).click();
    const name = page.getByLabel('Name of the saved query');
    await name.fill('   ');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Give the query a name.');
    await name.fill('English posts');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved as “English posts”.').waitFor();

    await page.reload();
    await page.getByRole('button', { name: 'Saved and recent' }).click();
    const recent = page.getByRole('list', { name: 'Recent searches' }).getByRole('listitem');
    expect(await recent.allTextContents()).toEqual([expect.stringMatching(/^lang:en/), expect.stringMatching(/^#opendata/)]);
    const saved = page.getByRole('list', { name: 'Saved queries' }).getByRole('listitem');
    expect(await saved.count()).toBe(1);
    await screenshot(page, 'search-queries-1440');

    await recent.nth(1).getByRole('link').click();
    await page.waitForURL(/opendata/);
    await page.getByRole('table', { name: 'Search results' }).locator('.body-row').first().waitFor();
    expect(await page.getByLabel('Query', { exact: true }).inputValue()).toBe('#opendata');

    await page.getByRole('link', { name: 'English posts' }).click();
    await page.waitForURL(/lang%3Aen|lang:en/);
    // The box follows the address on the render after it: asked at once, it could still hold the last query.
    await expect.poll(() => page.getByLabel('Query', { exact: true }).inputValue()).toBe('lang:en');
    await page.getByRole('button', { name: 'Delete saved query English posts' }).click();
    expect(await saved.count()).toBe(0);
    await page.close();
  });
});
