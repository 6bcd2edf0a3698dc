import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/main/engine/clock';
import { createEngine } from '../../src/main/engine/engine';
import { startJobRunner, type JobRow } from '../../src/main/engine/jobs';
import { APP_USER_ID } from '../../src/main/engine/handlers/app-user';
import { dataFilePath } from '../../src/main/engine/exports/file-state';
import { fund } from '../fixtures/api-corpus';
import { finishedExport } from '../fixtures/finished-exports';
import { writeConversation } from '../fixtures/jobs-corpus';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { type SkeinProcess, startSkein } from '../helpers/skein-process';

// Exports > Delete in real Chromium against the built `skein serve` (issue 13 point 18). The data
// dir is prepared in this process: three finished reply jobs of the app (one five days old). The
// page deletes one file after a confirmation that names it, its size and what stays; the row
// stays, marked deleted, and its URL answers 410. The retention card asks before a setting
// deletes files. Screenshots at 1440x900 and 1024x700, light and dark.

const SHOTS = process.env.SKEIN_SHOTS_DIR;

describe('Exports > Delete', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  let jobs: JobRow[];
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-delete-'));

  beforeAll(async () => {
    const clock = new ManualClock(Date.now() - 5 * 86_400_000);
    const engine = createEngine({ dataDir, clock });
    writeConversation(engine.db, 60, 4);
    fund(engine, APP_USER_ID);
    const runner = startJobRunner(engine, { mode: 'inline' });
    jobs = [await finishedExport(engine, runner, APP_USER_ID, 12)];
    clock.set(Date.now());
    jobs.push(await finishedExport(engine, runner, APP_USER_ID, 40), await finishedExport(engine, runner, APP_USER_ID, 25, 'json'));
    await runner.stop();
    engine.close();
    skein = await startSkein(dataDir, ['--no-demo']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function shot(page: Page, name: string): Promise<void> {
    const file = await screenshot(page, name);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      copyFileSync(file, join(SHOTS, `${name}.png`));
    }
  }

  it('deletes a file after a confirmation naming it; the row stays, marked deleted, and its URL answers 410', async () => {
    const page = await logIn(await browser.newPage({ viewport: { width: 1440, height: 900 } }), skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${skein.url}/#/exports`);
    const table = page.getByRole('grid', { name: 'Export files' }).or(page.getByRole('table', { name: 'Export files' }));
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    const target = jobs[1]!;
    const rowOf = (job: JobRow) => table.getByRole('row').filter({ hasText: job.result_file! });
    const url = await rowOf(target).getByRole('link', { name: 'Download' }).getAttribute('href');
    expect((await fetch(url!)).status).toBe(200);

    await rowOf(target).getByRole('button', { name: `Delete ${target.result_file}` }).click();
    const confirm = page.getByTestId('delete-export-confirm');
    const words = (await confirm.textContent())!;
    expect(words).toContain(`Delete ${target.result_file} (`);
    expect(words).toMatch(/\(\d+(\.\d)? KiB, 40 rows\)/);
    expect(words).toContain(`Job ${target.id} and its ledger charges stay`);
    await shot(page, 'exports-delete-confirm-1440-light');
    // Keep leaves everything as it was.
    await confirm.getByRole('button', { name: 'Keep' }).click();
    expect(await confirm.count()).toBe(0);
    expect(existsSync(dataFilePath(dataDir, target))).toBe(true);

    await rowOf(target).getByRole('button', { name: `Delete ${target.result_file}` }).click();
    await page.getByTestId('delete-export-confirm').getByRole('button', { name: 'Delete file' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Deleted ${target.result_file}`);
    await expect.poll(async () => (await rowOf(target).textContent()) ?? '').toContain('Deleted');
    expect(await rowOf(target).getByRole('link', { name: 'Download' }).count()).toBe(0);
    expect(await table.getByRole('row').count()).toBe(4);
    expect(existsSync(dataFilePath(dataDir, target))).toBe(false);
    const gone = await fetch(url!);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { message: string }).message).toContain(`The data file of job ${target.id} (${target.result_file}) was deleted on `);

    // The filters: deleted files only, then a text that matches none.
    await page.getByLabel('State').selectOption('deleted');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByLabel('State').selectOption('all');
    await page.getByLabel('File, name, query or job').fill(`job${jobs[2]!.id}.json`);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByLabel('File, name, query or job').fill('');

    // Retention: keeping 2 days would delete the five-day-old file; saving asks first.
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Keep files' }) });
    expect(await card.textContent()).toContain('Now: keep every file; 2 files in the exports folder');
    await card.getByText('For some days', { exact: true }).click();
    await card.getByLabel('Days to keep a file').fill('2');
    await card.getByRole('button', { name: 'Save' }).click();
    const ask = card.getByTestId('retention-confirm');
    expect(await ask.textContent()).toContain(`Saving this deletes 1 file now`);
    expect(await ask.textContent()).toContain(jobs[0]!.result_file!);
    await ask.scrollIntoViewIfNeeded();
    await shot(page, 'exports-retention-confirm-1440-light');
    await ask.getByRole('button', { name: 'Save and delete 1 file' }).click();
    await expect.poll(async () => (await card.textContent()) ?? '').toContain('Now: keep 2 days; 1 file in the exports folder');
    await expect.poll(async () => (await rowOf(jobs[0]!).textContent()) ?? '').toContain('by the retention setting');
    expect(existsSync(dataFilePath(dataDir, jobs[0]!))).toBe(false);
    await page.close();

    // How it looks: the list with kept and deleted files, in both themes and two window sizes.
    for (const [width, height] of [[1440, 900], [1024, 700]] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme });
        const p = await logIn(await context.newPage(), skein);
        await p.goto(`${skein.url}/#/exports`);
        await expect.poll(() => p.getByRole('grid', { name: 'Export files' }).or(p.getByRole('table', { name: 'Export files' })).getByRole('row').count()).toBe(4);
        await p.getByRole('button', { name: `Delete ${jobs[2]!.result_file}` }).click();
        await shot(p, `exports-delete-${width}-${colorScheme}`);
        await p.locator('section', { has: p.getByRole('heading', { name: 'Keep files' }) }).scrollIntoViewIfNeeded();
        await shot(p, `exports-retention-${width}-${colorScheme}`);
        await context.close();
      }
    }
  });
});
