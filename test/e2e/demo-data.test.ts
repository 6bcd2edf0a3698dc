import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Home > Remove the demo data in real Chromium against the built `skein serve` on a first start
// (the demo corpus loaded). Home says the demo data is fictional and offers its removal; Settings >
// Data says so beside the import; after a confirmation the corpus is empty, every view asked again,
// and neither note shows. Screenshots at 1440x900 light and 1024x700 dark.

describe('Home > Remove the demo data', () => {
  const app = demoApp('skein-e2e-demo-data-');

  it('says the demo data is fictional, asks, removes it, and the app shows an empty corpus', async () => {
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' }), app.skein);
    await page.goto(`${app.skein.url}/#/settings`);
    await expect.poll(() => page.getByTestId('demo-data-note').textContent()).toContain('The corpus holds the demo data (fictional users and posts)');
    await page.getByTestId('demo-data-note').scrollIntoViewIfNeeded();
    await screenshot(page, 'demo-data-settings-1440-light');

    await page.goto(`${app.skein.url}/#/`);
    const posts = page.locator('.figure-card', { hasText: 'Posts' }).locator('.figure-value');
    await expect.poll(() => posts.textContent()).toBe('20,000');
    await expect.poll(() => page.locator('.card', { hasText: 'Demo tour' }).textContent()).toContain('Fictional users, posts, articles and spaces');
    await screenshot(page, 'demo-data-1440-light');

    await page.getByRole('button', { name: 'Remove the demo data…' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Remove the demo data' });
    expect(await ask.textContent()).toContain('Records you imported or fetched stay, and so do jobs, their files and the ledger');
    // Keep changes nothing.
    await ask.getByRole('button', { name: 'Keep' }).click();
    await expect.poll(() => ask.count()).toBe(0);
    expect(await posts.textContent()).toBe('20,000');

    await page.setViewportSize({ width: 1024, height: 700 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Remove the demo data…' }).click();
    await screenshot(page, 'demo-data-ask-1024-dark');
    await page.getByRole('button', { name: 'Remove demo data' }).click();
    await expect.poll(() => page.getByText('Removed the demo data: 200 users, 20,000 posts, 12 articles, 8 spaces.').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => posts.textContent()).toBe('0');
    expect(await page.getByRole('button', { name: 'Remove the demo data…' }).count()).toBe(0);
    expect(await page.locator('.card', { hasText: 'Demo tour' }).textContent()).toContain('No tour for this corpus');
    await screenshot(page, 'demo-data-removed-1024-dark');

    // Views asked again: a search finds nothing of the demo, and Settings no longer warns.
    await page.goto(`${app.skein.url}/#/search?q=${encodeURIComponent('chart')}`);
    await expect.poll(() => page.getByText('No post matches this query.').count(), { timeout: 10_000 }).toBe(1);
    await page.goto(`${app.skein.url}/#/settings`);
    await page.getByRole('heading', { name: 'Data' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('demo-data-note').count()).toBe(0);
  });
});
