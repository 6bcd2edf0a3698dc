import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { type SkeinProcess, startSkein } from '../helpers/skein-process';

// Issue 15: a job named in the form carries its name and query into Jobs and Exports, and both
// lists filter on it; the Jobs list filters by status (the app's own 'cancelled' included), kind
// and format, and says "N of M jobs". Real `skein serve`, real Chromium, the demo corpus.

describe('job names and the Jobs filters (headless mode, demo corpus)', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  let page: Page;
  let root: { id_str: string; screen_name: string };
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-jobnames-'));

  /** An app call as the page makes it (POST /app/rpc/<name> with the session cookie). */
  const rpc = (name: string, args: object) =>
    page.evaluate(
      async ([n, a]) => {
        const res = await fetch(`/app/rpc/${n}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-skein-app': '1' }, body: JSON.stringify(a) });
        return (await res.json()) as { value?: { job_id: number; cancelled?: boolean }; error?: { message: string } };
      },
      [name, args] as const,
    );

  beforeAll(async () => {
    skein = await startSkein(dataDir);
    browser = await launchChromium();
    page = await logIn(await browser.newPage({ viewport: { width: 1440, height: 900 } }), skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const db = new Database(join(dataDir, 'skein.db'), { readonly: true });
    root = (JSON.parse(db.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string) as { large_conversation_root: typeof root }).large_conversation_root;
    db.close();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('names a job in the form, filters the Jobs list by status (cancelled too), kind, format and text, and counts', async () => {
    const query = `from:${root.screen_name}`;
    await page.goto(`${skein.url}/#/jobs?new=search&query=${encodeURIComponent(query)}`);
    await page.getByLabel('Maximum posts').fill('10');
    await page.getByLabel('File format').selectOption('csv');
    await page.getByLabel('Job name').fill('x'.repeat(81));
    await expect.poll(() => page.getByTestId('credit-hold').textContent()).toContain('The name has 81 characters; at most 80.');
    expect(await page.getByRole('button', { name: 'Start job' }).isDisabled()).toBe(true);
    await page.getByLabel('Job name').fill('  Debate night  ');
    await expect.poll(() => page.getByTestId('credit-hold').textContent()).toMatch(/Holds 10 credits/);
    await page.getByRole('button', { name: 'Start job' }).click();
    const rows = page.locator('[aria-label="Jobs"] .body-row');
    await expect.poll(() => rows.first().textContent(), { timeout: 60_000 }).toContain('success');
    expect(await rows.first().locator('.job-name').textContent()).toBe('Debate night');
    expect(await rows.first().textContent()).toContain(`Search “${query}”`);

    // Two more finished jobs, and one cancelled: a 5,000-row job cancelled at once ends cancelled
    // whether it still waited or had started (the runner stops at its next batch); should one
    // finish first, this tries again, at most 5 times.
    expect((await rpc('jobs.create', { kind: 'replies', tweet_id: root.id_str, output_format: 'json', max_count: 5 })).value?.job_id).toBeGreaterThan(0);
    expect((await rpc('jobs.create', { kind: 'search', query: 'lang:en', max_count: 5, output_format: 'xlsx' })).value?.job_id).toBeGreaterThan(0);
    let cancelled = false;
    for (let i = 0; i < 5 && !cancelled; i++) {
      const { value } = await rpc('jobs.create', { kind: 'search', query: 'lang:en', max_count: 5000, output_format: 'json', name: `To cancel ${i}` });
      await rpc('jobs.cancel', { job_id: value!.job_id });
      await expect.poll(async () => (await rpc('jobs.get', { job_id: value!.job_id })).value as unknown as { status: string }, { timeout: 60_000 }).toMatchObject({ status: expect.stringMatching(/success|error/) });
      cancelled = (await rpc('jobs.get', { job_id: value!.job_id })).value?.cancelled === true;
    }
    expect(cancelled).toBe(true);
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    await expect.poll(async () => (await rows.allTextContents()).every((t) => /success|cancelled/.test(t)), { timeout: 60_000 }).toBe(true);
    const total = await rows.count();
    // A try that the runner had taken may also end cancelled (it stops at its next batch).
    const cancelledRows = await page.locator('[aria-label="Jobs"] .state-badge.cancelled').count();
    expect(cancelledRows).toBeGreaterThanOrEqual(1);
    const count = page.locator('.filter-bar[aria-label="Filter jobs"] .filter-count');
    expect(await count.textContent()).toBe(`${total} jobs`);

    const bar = page.getByRole('search', { name: 'Filter jobs' });
    await bar.getByLabel('Status').selectOption('cancelled');
    await expect.poll(() => count.textContent()).toBe(`${cancelledRows} of ${total} jobs`);
    expect(await rows.locator('.state-badge').allTextContents()).toEqual(Array(cancelledRows).fill('cancelled'));
    await bar.getByLabel('Status').selectOption('all');

    await bar.getByLabel('Kind').selectOption('replies');
    await expect.poll(() => count.textContent()).toBe(`1 of ${total} jobs`);
    expect(await rows.first().textContent()).toContain(`Replies to ${root.id_str}`);
    await bar.getByLabel('Kind').selectOption('all');

    await bar.getByLabel('Format').selectOption('xlsx');
    await expect.poll(() => count.textContent()).toBe(`1 of ${total} jobs`);
    await bar.getByLabel('Format').selectOption('all');

    await bar.getByLabel('Name, query, post or user id, or job').fill('DEBATE');
    await expect.poll(() => count.textContent()).toBe(`1 of ${total} jobs`);
    expect(await rows.first().locator('.job-name').textContent()).toBe('Debate night');
    await bar.getByLabel('Name, query, post or user id, or job').fill('lang:en');
    await bar.getByLabel('Format').selectOption('xlsx');
    await expect.poll(() => count.textContent()).toBe(`1 of ${total} jobs`);
    await bar.getByLabel('Format').selectOption('all');
    await bar.getByLabel('Status').selectOption('all');
    await bar.getByLabel('Name, query, post or user id, or job').fill('nothing like this');
    await expect.poll(() => page.getByText('No job matches these filters.').count()).toBe(1);
    await bar.getByLabel('Name, query, post or user id, or job').fill('');
    await rows.last().scrollIntoViewIfNeeded();
    await screenshot(page, 'jobs-filter-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    await rows.last().scrollIntoViewIfNeeded();
    await screenshot(page, 'jobs-filter-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("shows the job's name and query in Exports and filters files on them", async () => {
    await page.goto(`${skein.url}/#/exports`);
    const rows = page.locator('[aria-label="Export files"] .body-row');
    const files = (await rpc('exports.list', {})).value as unknown as unknown[];
    await expect.poll(() => rows.count()).toBe(files.length);
    const named = rows.filter({ hasText: 'Debate night' });
    expect(await named.count()).toBe(1);
    expect(await named.textContent()).toContain(`Search “from:${root.screen_name}”`);
    expect(await rows.filter({ hasText: `Replies to ${root.id_str}` }).count()).toBe(1);
    const bar = page.getByRole('search', { name: 'Filter export files' });
    const count = bar.locator('.filter-count');
    await bar.getByLabel('File, name, query or job').fill('debate');
    await expect.poll(() => count.textContent()).toBe(`1 of ${files.length} files`);
    await bar.getByLabel('File, name, query or job').fill('lang:en');
    await bar.getByLabel('Format').selectOption('xlsx');
    await expect.poll(() => count.textContent()).toBe(`1 of ${files.length} files`);
    await bar.getByLabel('Format').selectOption('all');
    expect(await rows.first().textContent()).toContain('.xlsx');
    await bar.getByLabel('File, name, query or job').fill('');
    await named.click();
    await page.locator('#preview-title').waitFor();
    expect(await page.locator('section:has(#preview-title) > p').first().textContent()).toContain('Debate night');
    await screenshot(page, 'exports-names-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    await screenshot(page, 'exports-names-1024');
  });
});
