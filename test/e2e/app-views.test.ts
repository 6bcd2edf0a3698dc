import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Every view of the app in real Chromium against the built `skein serve` (headless mode): the
// renderer talks to the real engine over the contract's HTTP transport. Screenshots of each view
// go to test-results/screenshots/app-*.png.

interface Tour {
  protected_user: { id_str: string; screen_name: string };
  article_post: { id_str: string; title: string };
  space: { id: string; title: string };
  large_conversation_root: { id_str: string; screen_name: string; replies: number };
}

describe('the app in a real browser (headless mode)', () => {
  const app = demoApp('skein-e2e-app-');
  let page: Page;
  let tour: Tour;

  beforeAll(async () => {
    page = await logIn(await app.browser.newPage({ viewport: { width: 1360, height: 880 } }), app.skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const db = new Database(join(app.dataDir, 'skein.db'), { readonly: true });
    tour = JSON.parse((db.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string) ?? '{}') as Tour;
    db.close();
  });

  it('home shows the corpus figures and the demo tour', async () => {
    await page.goto(app.skein.url);
    await page.getByRole('heading', { name: 'Demo tour' }).waitFor();
    await expect(page.getByText('Posts', { exact: true }).first().isVisible()).resolves.toBe(true);
    await page.locator('.tour a').first().waitFor();
    expect(await page.locator('.tour a').count()).toBeGreaterThan(5);
    await screenshot(page, 'app-home');
  });

  it('browses a timeline to its third page', async () => {
    await page.goto(`${app.skein.url}/#/timeline?user=${encodeURIComponent('@' + tour.large_conversation_root.screen_name)}&kind=tweets-and-replies`);
    const status = page.getByTestId('timeline-status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/ 1 page loaded/);
    const body = page.getByTestId('table-body').first();
    for (let pages = 2; pages <= 3; pages++) {
      await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(new RegExp(` ${pages} pages loaded`));
    }
    expect(await status.textContent()).toMatch(/^(4\d|5\d|60) posts · 3 pages loaded/);
    // Virtualised: far fewer rows in the DOM than loaded.
    expect(await page.locator('.body-row').count()).toBeLessThan(40);
    await screenshot(page, 'app-timeline');
  });

  it('moves through a table with the keyboard and opens a post with Enter', async () => {
    const body = page.getByRole('table', { name: /^Posts of @/ }).getByTestId('table-body');
    await body.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    const second = page.locator('.body-row[aria-selected="true"]');
    expect(await second.getAttribute('aria-rowindex')).toBe('2');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('location.hash')).toMatch(/^#\/post\/\d+$/);
    await page.locator('.tweet-card').waitFor();
    // Alt+3 jumps to Search, as the sidebar says.
    await page.keyboard.press('Alt+3');
    await expect.poll(() => page.evaluate('location.hash')).toBe('#/search');
  });

  it('opens a post and its reply tree, with the raw JSON', async () => {
    await page.goto(`${app.skein.url}/#/post/${tour.large_conversation_root.id_str}`);
    await page.getByRole('heading', { name: 'Replies' }).waitFor();
    await page.getByRole('tab', { name: /Direct replies/ }).waitFor();
    expect(await page.getByRole('tab', { name: /Level 2/ }).count()).toBe(1);
    await page.getByRole('tab', { name: /Level 2/ }).click();
    await page.locator('[aria-label="Replies at level 2"] .body-row').first().waitFor();
    await page.getByRole('button', { name: 'Raw JSON' }).click();
    await expect(page.locator('.raw-json pre').textContent()).resolves.toContain(`"id": ${tour.large_conversation_root.id_str}`);
    await screenshot(page, 'app-post');
    await page.getByRole('button', { name: 'Hide JSON' }).click();
  });

  it('reads an article', async () => {
    await page.goto(`${app.skein.url}/#/article/${tour.article_post.id_str}`);
    await page.locator('#article-title').waitFor();
    expect(await page.locator('#article-title').textContent()).toBe(tour.article_post.title);
    expect(await page.locator('.article-body h2').count()).toBeGreaterThan(0);
    expect(await page.locator('.article-body ul li').count()).toBeGreaterThan(0);
    expect(await page.locator('.article-body strong, .article-body em').count()).toBeGreaterThan(0);
    await screenshot(page, 'app-article');
  });

  it('opens a space', async () => {
    await page.goto(`${app.skein.url}/#/space/${tour.space.id}`);
    await page.getByRole('heading', { name: 'Times' }).waitFor();
    expect(await page.locator('.state-badge').first().textContent()).toBe('Ended');
    await page.getByRole('heading', { name: 'Creator' }).waitFor();
    // The creator by their numeric id (the spec's creator.id is base64 of "User:<id>"), joined on a date in the app's format.
    const line = (await page.getByRole('article', { name: 'Creator' }).locator('.muted.small').first().textContent()) ?? '';
    expect(line).toMatch(/^id \d+ · joined [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await screenshot(page, 'app-space');
  });

  it('runs a search and underlines a syntax error where it is', async () => {
    await page.goto(`${app.skein.url}/#/search`);
    await page.getByLabel('Query').fill(`from:${tour.large_conversation_root.screen_name}`);
    await page.getByLabel('Query').press('Enter');
    await page.getByTestId('search-status').waitFor();
    expect(await page.locator('[aria-label="Search results"] .body-row').count()).toBeGreaterThan(0);
    // The matches are counted before collecting, and "Collect all" starts the job with that count.
    await expect.poll(() => page.getByTestId('search-count').textContent()).toMatch(/^[\d,]+ posts? match/);
    const count = ((await page.getByTestId('search-count').textContent()) ?? '').replace(/[^\d]/g, '');
    await screenshot(page, 'app-search');
    await page.getByRole('link', { name: /^Collect all [\d,]+ into a file$/ }).click();
    await expect.poll(() => page.getByLabel('Maximum posts').inputValue()).toBe(count);
    await page.goto(`${app.skein.url}/#/search`);
    await page.getByLabel('Query').fill('cats form:x');
    await page.getByLabel('Query').press('Enter');
    await page.locator('mark.query-error').waitFor();
    expect(await page.locator('mark.query-error').textContent()).toMatch(/^form/);
    await screenshot(page, 'app-search-error');
  });

  it('points the webhook at the inbox', async () => {
    await page.goto(`${app.skein.url}/#/settings`);
    await page.getByRole('button', { name: 'Use the inbox' }).click();
    expect(await page.getByLabel('Webhook URL').inputValue()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inbox\/[0-9a-f]+$/);
    await page.locator('#webhook-title').locator('..').getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/^Saved: jobs of app are announced at http/).waitFor(); // the save is confirmed
    await expect.poll(() => page.locator('[aria-label="API users"] .body-row').first().textContent()).toContain('/inbox/');
    // A test event reaches the inbox at once, signed or not as the secret says, and is no delivery.
    await page.getByRole('button', { name: 'Send a test event' }).click();
    expect(await page.getByTestId('webhook-test-result').textContent()).toMatch(/^The receiver answered HTTP 200 in \d+ ms/);
    const inbox = page.locator('[aria-label="Webhook inbox"] .body-row').first();
    await expect.poll(() => inbox.textContent()).toContain('"event":"test"');
    expect(await page.locator('[aria-label="Webhook deliveries"] .body-row').count()).toBe(0);
    await page.locator('#webhook-title').scrollIntoViewIfNeeded();
    await screenshot(page, 'app-settings-webhook-test');
  });

  it('starts a search job in xlsx, shows the credit hold, and watches it reach success', async () => {
    await page.goto(`${app.skein.url}/#/jobs?new=search&query=${encodeURIComponent('from:' + tour.large_conversation_root.screen_name)}`);
    await page.getByLabel('Maximum posts').fill('50');
    await page.getByLabel('File format').selectOption('xlsx');
    await expect.poll(() => page.getByTestId('credit-hold').textContent()).toMatch(/Holds 50 credits/);
    await screenshot(page, 'app-jobs-form');
    await page.getByRole('button', { name: 'Start job' }).click();
    const row = page.locator('[aria-label="Jobs"] .body-row').first();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('success');
    expect(await row.textContent()).toContain('xlsx');
    await screenshot(page, 'app-jobs');
  });

  it('finds the file in Exports and previews its first rows', async () => {
    await page.goto(`${app.skein.url}/#/exports`);
    const row = page.locator('[aria-label="Export files"] .body-row').first();
    await expect.poll(() => row.textContent()).toMatch(/search-job\d+\.xlsx/);
    await row.click();
    await page.locator('[aria-label="File preview"] .body-row').first().waitFor();
    expect(await page.locator('[aria-label="File preview"] [role=columnheader]').first().textContent()).toBe('id_str');
    const firstId = await page.locator('[aria-label="File preview"] .body-row').first().locator('[role=cell]').first().textContent();
    expect(firstId).toMatch(/^\d{19}$/);
    expect(await page.getByRole('link', { name: 'Download' }).first().getAttribute('href')).toMatch(/\/datafiles\//);
    await screenshot(page, 'app-exports');
  });

  it('sees the webhook delivery and the inbox entry', async () => {
    await page.goto(`${app.skein.url}/#/settings`);
    const delivery = page.locator('[aria-label="Webhook deliveries"] .body-row').first();
    await expect.poll(() => delivery.textContent(), { timeout: 30_000 }).toContain('delivered');
    const inbox = page.locator('[aria-label="Webhook inbox"] .body-row').first();
    await expect.poll(() => inbox.textContent(), { timeout: 30_000 }).toContain('job_finished');
    await page.locator('#webhook-title').scrollIntoViewIfNeeded();
    await screenshot(page, 'app-settings-webhook');
  });

  it('creates a key, shows it once, and revokes it', async () => {
    await page.goto(`${app.skein.url}/#/settings`);
    await page.getByLabel('Key user').fill('e2e_analyst');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').textContent();
    expect(key).toMatch(/^sk_/);
    // The key works against the spec API at once.
    const res = await fetch(`${app.skein.url}/social/spaces/show?id=${tour.space.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const keyRow = page.locator('[aria-label="API keys"] .body-row', { hasText: 'e2e_analyst' });
    await expect.poll(() => keyRow.textContent()).toContain('active');
    await page.locator('#keys-title').scrollIntoViewIfNeeded();
    await screenshot(page, 'app-settings-keys');
    await keyRow.getByRole('button', { name: /Revoke/ }).click();
    // Revoking asks first; Keep changes nothing.
    const ask = page.getByRole('alertdialog', { name: /^Revoke key sk_/ });
    expect(await ask.textContent()).toMatch(/Scripts using it get 401 at once, and it cannot be undone\. It is e2e_analyst's last active key/);
    await screenshot(page, 'app-settings-revoke-confirm');
    await ask.getByRole('button', { name: 'Keep' }).click();
    expect(await keyRow.textContent()).toContain('active');
    await keyRow.getByRole('button', { name: /Revoke/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => keyRow.textContent()).toContain('revoked');
    const after = await fetch(`${app.skein.url}/social/spaces/show?id=${tour.space.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
  });

  it('keeps a 100,000-row table virtualised: only the visible rows are in the DOM', async () => {
    await page.goto(`${app.skein.url}/#/dev/table?rows=100000`);
    const table = page.getByRole('table', { name: 'Benchmark rows' });
    await table.locator('.body-row').first().waitFor({ timeout: 60_000 });
    expect(await table.getAttribute('aria-rowcount')).toBe('100000');
    const body = table.getByTestId('table-body');
    await body.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
    await expect.poll(() => table.locator('.body-row').first().getAttribute('aria-rowindex')).not.toBe('1');
    const rowsInDom = await table.locator('.body-row').count();
    expect(rowsInDom).toBeGreaterThan(5);
    expect(rowsInDom).toBeLessThan(60);
    // Keyboard: End jumps to the last row, which is then in the DOM.
    await body.focus();
    await page.keyboard.press('End');
    await expect.poll(() => table.locator('.body-row[aria-rowindex="100000"]').count()).toBe(1);
    await screenshot(page, 'app-table-100k');
  });

  it('follows the OS dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${app.skein.url}/#/post/${tour.large_conversation_root.id_str}`);
    await page.getByRole('tab', { name: /Direct replies/ }).waitFor();
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(15, 18, 22)');
    await screenshot(page, 'app-post-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('imports a picked file through the browser with progress and counts', async () => {
    const file = join(app.dataDir, '..', `skein-e2e-import-${process.pid}.jsonl`);
    const user = { id_str: '9007199254740993', name: 'Picked Person', screen_name: 'picked_p', created_at: 'Wed Oct 10 20:19:24 +0000 2018' };
    writeFileSync(file, `${JSON.stringify({ id_str: '9007199254740997', full_text: 'imported through the picker', created_at: 'Thu Oct 11 20:19:24 +0000 2018', user })}\n`);
    try {
      await page.goto(`${app.skein.url}/#/settings`);
      await page.getByLabel('Files to import').setInputFiles(file);
      const done = page.locator('[aria-label="Imports"] li', { hasText: 'done' });
      await done.waitFor({ timeout: 30_000 });
      expect(await done.textContent()).toContain('1 added');
      await page.locator('#data-title').scrollIntoViewIfNeeded();
      await screenshot(page, 'app-settings-data');
      await page.goto(`${app.skein.url}/#/post/9007199254740997`);
      await expect.poll(() => page.locator('.tweet-text').textContent()).toBe('imported through the picker');
    } finally {
      rmSync(file, { force: true });
    }
  });
});
