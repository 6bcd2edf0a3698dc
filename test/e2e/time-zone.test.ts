import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { importTwarcPage, type SkeinProcess, startSkein } from '../helpers/skein-process';

// Dates in the app carry their zone, and a setting shows them in UTC, the zone of queries and
// exports (issue 15 "Time"). A post at 02:30 UTC on 14 June is the evening of 13 June in New York:
// without the zone an analyst reads the wrong day.
const AUTHOR = '1358082450635829249';
const POST = '1404393119253250054';

describe('dates show their zone, and UTC is a setting (headless mode)', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-zone-'));

  beforeAll(async () => {
    importTwarcPage(dataDir, {
      data: [{ id: POST, author_id: AUTHOR, text: 'Late in the evening, or early in the morning', created_at: '2021-06-14T02:30:00.000Z', conversation_id: POST }],
      includes: { users: [{ id: AUTHOR, username: 'night_owl', name: 'Night Owl', created_at: '2020-01-01T00:00:00.000Z' }] },
      __twarc: { retrieved_at: '2021-06-14T12:00:00+00:00' },
    });
    skein = await startSkein(dataDir, ['--no-demo']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the computer\'s zone by default, UTC once chosen, and keeps the choice across a reload', async () => {
    const context = await browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US', viewport: { width: 1440, height: 900 } });
    const page = await logIn(await context.newPage(), skein);
    const postTime = async () => {
      await page.goto(`${skein.url}/#/post/${POST}`);
      const time = page.locator('.tweet-card time').first();
      await time.waitFor();
      return (await time.textContent()) ?? '';
    };
    expect(await postTime()).toBe('Jun 13, 2021, 10:30 PM EDT');
    // The user's activity chart names the same zone: its days are the computer's days.
    const chartZone = async () => {
      await page.goto(`${skein.url}/#/timeline?user=night_owl`);
      const chart = page.getByTestId('user-activity').getByTestId('posts-chart');
      await chart.locator('canvas').waitFor();
      return chart.getAttribute('aria-label');
    };
    expect(await chartZone()).toMatch(/\(America\/New_York\)$/);

    await page.goto(`${skein.url}/#/settings`);
    const section = page.getByRole('region', { name: 'Dates and times' });
    await expect.poll(() => section.getByText('America/New_York').count()).toBe(1);
    await section.locator('label', { hasText: /^UTC$/ }).click();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-time-zone-1440-light');
    expect(await postTime()).toBe('Jun 14, 2021, 2:30 AM UTC');
    expect(await chartZone()).toMatch(/\(UTC\)$/);

    // The search page says which zone its dates and its since:/until: take.
    await page.goto(`${skein.url}/#/search?q=${encodeURIComponent('since:2021-06-14')}`);
    await expect.poll(() => page.locator('.zone-note').textContent()).toMatch(/since: and until: take UTC days; the dates below are shown in UTC/);

    await page.reload();
    expect(await postTime()).toBe('Jun 14, 2021, 2:30 AM UTC');
    await context.close();

    const dark = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-US', viewport: { width: 1024, height: 800 }, colorScheme: 'dark' });
    const other = await logIn(await dark.newPage(), skein);
    await other.goto(`${skein.url}/#/settings`);
    await other.getByRole('region', { name: 'Dates and times' }).waitFor();
    await other.getByRole('region', { name: 'Dates and times' }).scrollIntoViewIfNeeded();
    await screenshot(other, 'settings-time-zone-1024-dark');
    await other.goto(`${skein.url}/#/post/${POST}`);
    await other.locator('.tweet-card time').first().waitFor();
    expect(await other.locator('.tweet-card time').first().textContent()).toBe('Jun 14, 2021, 11:30 AM GMT+9');
    await dark.close();
  });
});
