import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { builtCli, type SkeinProcess, startSkein } from '../helpers/skein-process';
import { freePort } from '../helpers/free-port';

// A tab open while its `skein serve` restarts on the same data dir and port (issue 15 "Restarts
// and failures"): it says once that the server is away, reconnects by itself, and its live updates
// resume. The login cookie is the data dir's, so the restarted server takes it as it is (issue 13,
// point 14); no request after the login carries a token in its URL.


describe('a tab survives a restart of its server (headless mode)', () => {
  let skein: SkeinProcess | undefined;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-restart-'));
  let port = 0;
  const start = async () => (skein = await startSkein(dataDir, ['--port', String(port)]));

  beforeAll(async () => {
    port = await freePort();
    await start();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows one banner while the server is away, reconnects, and gets live updates again', async () => {
    const page = await logIn(await browser.newPage({ viewport: { width: 1440, height: 900 } }), skein!);
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto(`${skein!.url}/#/jobs`);
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    const banner = page.locator('.connection-banner');
    expect(await banner.count()).toBe(0);

    await skein!.stop();
    await banner.waitFor();
    // Clicking around while it is away: still one banner.
    await page.goto(`${skein!.url}/#/settings`);
    await page.goto(`${skein!.url}/#/jobs`);
    expect(await banner.count()).toBe(1);
    // The Jobs list, asked for again while away, waits quietly: the banner is the one alert.
    await page.locator('.waiting-state', { hasText: 'Waiting for Skein' }).waitFor();
    expect(await page.locator('.error-state').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(1);
    await screenshot(page, 'server-away-1440');
    // A view of several parts (Exports: its files, the unfinished files, the retention setting)
    // says it once, in its first part; the others wait as skeletons.
    await page.goto(`${skein!.url}/#/exports`);
    const waitingParts = page.locator('.loading', { hasText: 'Waiting for Skein' });
    await expect.poll(() => waitingParts.count(), { timeout: 15_000 }).toBe(2);
    expect(await page.locator('.waiting-state').count()).toBe(1);
    expect(await page.locator('strong', { hasText: 'Waiting for Skein' }).count()).toBe(1);
    // The one that says it is the first waiting part on the page, whichever request failed first.
    expect(await page.locator('.waiting-part').first().locator('.waiting-state').count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(1);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'server-away-exports-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${skein!.url}/#/jobs`);
    await page.locator('.waiting-state').waitFor();

    await start();
    await banner.waitFor({ state: 'detached', timeout: 20_000 });
    // What waited is shown again without a reload.
    await page.locator('.waiting-state').waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('No jobs yet: start one above.').waitFor();
    // Live updates again: a job started by a script shows up and its end is announced by the event stream.
    const created = spawnSync(process.execPath, [builtCli, 'keys', 'create', '--name', 'script', '--credits', '100', '--json', '--data-dir', dataDir], { encoding: 'utf8' });
    expect(created.status, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const tour = await (await fetch(`${skein!.url}/social/search?query=${encodeURIComponent('lang:en')}`, { headers: { authorization: `Bearer ${key}` } })).json() as { tweets: unknown[] };
    expect(tour.tweets.length).toBeGreaterThan(0);
    const job = await fetch(`${skein!.url}/social/search/asyncJob`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'lang:en', max_count: 5, output_format: 'csv' }),
    });
    const { job_id } = (await job.json()) as { job_id: number };
    await page.locator('.toast', { hasText: `Job ${job_id} finished.` }).waitFor({ timeout: 20_000 });
    // A call from the page works with the same cookie (no "Forbidden ... not logged in").
    await page.goto(`${skein!.url}/#/settings`);
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(await page.getByText('not logged in').count()).toBe(0);
    // Loaded afresh from the restarted server, the page is the app, not the login page.
    await page.reload();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(await page.getByText('Open Skein with its login address').count()).toBe(0);
    expect(urls.filter((u) => /[?&]token=/.test(u))).toEqual([]);
    await page.close();
  });
});
