import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';
import type { Overview } from '../../src/shared/contract';

// The Overview (issue 16) in Chromium against headless mode and the demo corpus: opened from a
// search's results, its figures are the engine's 'overview.get' numbers, a top-list entry runs
// the drill-down search, the chart saves as CSV of its numbers, and a user's timeline links to one.

describe('overview (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-overview-');

  const rpc = (page: Page, args: object) =>
    page.evaluate(async (a) => {
      const res = await fetch('/app/rpc/overview.get', { method: 'POST', headers: { 'content-type': 'application/json', 'x-skein-app': '1' }, body: JSON.stringify(a) });
      return ((await res.json()) as { value: unknown }).value;
    }, args) as Promise<Overview>;

  it('shows the engine\'s figures for a query, saves the chart\'s numbers, and a hashtag click searches', async () => {
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true }), app.skein);
    await page.goto(`${app.skein.url}/#/search?q=lang%3Aen`);
    await page.getByTestId('search-overview').click();
    await page.waitForURL(/#\/overview\?q=lang%3Aen/);
    await page.getByTestId('posts-chart').locator('canvas').waitFor();
    const o = await rpc(page, { query: 'lang:en', utc_offset_minutes: 0 });
    expect(o.posts).toBeGreaterThan(1000);
    const num = (n: number) => n.toLocaleString('en-US');
    expect(await page.getByTestId('ov-posts').textContent()).toBe(num(o.posts));
    expect(await page.getByTestId('ov-authors').textContent()).toBe(num(o.unique_authors));
    expect(await page.getByTestId('ov-reply-share').textContent()).toBe(`${(o.reply_share * 100).toFixed(1)}%`);
    expect(await page.getByTestId('ov-quote-share').textContent()).toBe(`${(o.quote_share * 100).toFixed(1)}%`);
    const tags = page.getByTestId('ov-hashtags').getByRole('button');
    expect(await tags.allTextContents()).toEqual(o.hashtags.map((h) => `#${h.value}`));

    // UTC so the CSV's rows are the engine's UTC buckets.
    await page.getByRole('radio', { name: 'UTC' }).check();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save CSV' }).click()]);
    const lines = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('bucket_start_utc,posts,replies,quotes');
    expect(lines.length - 1).toBe(o.series.start_ms.length);
    expect(lines[1]).toBe(`${new Date(o.series.start_ms[0]!).toISOString()},${o.series.posts[0]},${o.series.replies[0]},${o.series.quotes[0]}`);
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save PNG' }).click()]);
    expect(readFileSync((await png.path())!).subarray(1, 4).toString()).toBe('PNG');
    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save SVG' }).click()]);
    expect(readFileSync((await svg.path())!, 'utf8')).toContain('<polyline');

    await tags.first().click();
    await page.waitForURL(/#\/search\?q=/);
    expect(await page.getByLabel('Query', { exact: true }).inputValue()).toBe(`lang:en #${o.hashtags[0]!.value}`);
    await page.getByRole('table', { name: 'Search results' }).locator('.body-row').first().waitFor();
    await page.close();
  });

  for (const [width, height] of [[1440, 900], [1024, 700]] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`draws a query's overview at ${width}x${height}, ${scheme}, within the window`, async () => {
        const page = await logIn(await app.browser.newPage({ viewport: { width, height }, colorScheme: scheme }), app.skein);
        await page.goto(`${app.skein.url}/#/search?q=%23opendata`);
        await page.getByRole('table', { name: 'Search results' }).locator('.body-row').first().waitFor();
        await page.goto(`${app.skein.url}/#/overview?q=%23opendata`);
        await page.getByTestId('posts-chart').locator('canvas').waitFor();
        await screenshot(page, `overview-query-${width}-${scheme}`);
        const bodyWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
        expect(bodyWidth).toBeLessThanOrEqual(width);
        await page.close();
      });
    }
  }
});
