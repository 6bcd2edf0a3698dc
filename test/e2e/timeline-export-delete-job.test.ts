import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Issue 15 in real Chromium against the built `skein serve` (demo corpus): Timeline > "Export
// timeline to a file…" opens the job form with kind timeline, the user, and the timeline's post
// count as max_count with its credit hold; the job runs and its file holds that many rows. Jobs >
// "Delete job…" asks first (ConfirmBar), Keep changes nothing, Delete takes the job out of Jobs and
// Exports with its file, whose URL then answers 410. Screenshots at 1440x900 and 1024x700, light
// and dark (SKEIN_SHOTS_DIR keeps a copy).

const SHOTS = process.env.SKEIN_SHOTS_DIR;

interface Tour {
  large_conversation_root: { id_str: string; screen_name: string };
}

async function shot(page: Page, name: string): Promise<void> {
  const file = await screenshot(page, name);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    copyFileSync(file, join(SHOTS, `${name}.png`));
  }
}

describe('timeline to a file, and deleting a job (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-timeline-job-');
  let user: { id: string; screen_name: string; posts: number };
  const db = () => new Database(join(app.dataDir, 'skein.db'), { readonly: true });

  beforeAll(() => {
    const d = db();
    const tour = JSON.parse(d.prepare("SELECT value FROM corpus_meta WHERE key = 'tour'").pluck().get() as string) as Tour;
    const author = tour.large_conversation_root;
    const userId = d.prepare('SELECT CAST(user_id AS TEXT) FROM posts WHERE id = ?').pluck().get(BigInt(author.id_str)) as string;
    const posts = d.prepare('SELECT count(*) FROM posts WHERE user_id = ?').pluck().get(BigInt(userId)) as number;
    d.close();
    user = { id: userId, screen_name: author.screen_name, posts };
  });

  it('exports a timeline from its page through a job pre-filled with its post count, then deletes the job after asking', { timeout: 180_000 }, async () => {
    expect(user.posts).toBeGreaterThan(20);
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.skein.url}/#/timeline?user=${encodeURIComponent(`@${user.screen_name}`)}&kind=tweets-and-replies`);
    const button = page.getByTestId('export-timeline');
    await button.waitFor();
    expect(await button.textContent()).toBe('Export timeline to a file…');
    // The count beside it is what a job without max_count would hold: every post of this timeline.
    await expect.poll(() => page.getByTestId('export-timeline-count').textContent()).toBe(` ${user.posts.toLocaleString('en-US')} posts and replies in the corpus`);
    await expect.poll(() => page.getByTestId('timeline-status').textContent(), { timeout: 20_000 }).toMatch(/1 page loaded/);

    await button.click();
    await page.getByRole('heading', { name: 'New collection' }).waitFor();
    expect(await page.getByRole('tab', { name: 'User timeline' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByLabel('User id', { exact: true }).inputValue()).toBe(user.id);
    expect(await page.getByLabel('Timeline', { exact: true }).inputValue()).toBe('tweets-and-replies');
    expect(await page.getByLabel('Maximum posts').inputValue()).toBe(String(user.posts));
    const foot = page.getByTestId('credit-hold');
    await expect.poll(() => foot.textContent()).toMatch(new RegExp(`^Holds ${user.posts.toLocaleString('en-US')} credits \\(max_count\\); [\\d,]+ available\\.`));
    await page.getByLabel('File format').selectOption('csv');
    await page.getByLabel('Job name').fill('Her whole timeline');
    await page.getByRole('button', { name: 'Start job' }).click();

    const table = page.getByRole('grid', { name: 'Jobs' }).or(page.getByRole('table', { name: 'Jobs' }));
    const row = table.getByRole('row').filter({ hasText: 'Her whole timeline' });
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('success');
    expect(await row.textContent()).toContain(`Timeline of @${user.screen_name} (posts and replies)`);
    const jobId = Number(await row.getByRole('cell').first().textContent());
    expect(jobId).toBeGreaterThan(0);
    const d = db();
    const job = d.prepare('SELECT id, result_rows, result_file, datafile_token, kind FROM jobs WHERE id = ?').get(jobId) as { id: number; result_rows: number; result_file: string; datafile_token: string; kind: string };
    d.close();
    expect(job).toMatchObject({ kind: 'timeline', result_rows: user.posts, result_file: `timeline-${user.id}-job${jobId}.csv` });
    const path = join(app.dataDir, 'exports', job.result_file);
    expect(existsSync(path)).toBe(true);
    const url = `${app.skein.url}/datafiles/${job.datafile_token}/${job.result_file}`;
    expect((await fetch(url)).status).toBe(200);

    // Delete job…: the question names the job, its file and what stays; Keep changes nothing.
    await row.getByRole('button', { name: `Delete job ${jobId}…` }).click();
    const confirm = page.getByTestId('delete-job-confirm');
    const words = (await confirm.textContent())!;
    expect(words).toContain(`Delete job ${jobId} (Timeline of @${user.screen_name} (posts and replies)) and its file ${job.result_file}?`);
    expect(words).toContain(`The ${user.posts.toLocaleString('en-US')} credits it was charged stay in the ledger.`);
    await confirm.getByRole('button', { name: 'Keep' }).click();
    expect(await confirm.count()).toBe(0);
    expect(existsSync(path)).toBe(true);
    expect(errors).toEqual([]);

    await row.getByRole('button', { name: `Delete job ${jobId}…` }).click();
    await confirm.getByRole('button', { name: 'Delete job' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Deleted job ${jobId} and ${job.result_file}`);
    await expect.poll(() => row.count()).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect((await fetch(url)).status).toBe(410);
    await page.goto(`${app.skein.url}/#/exports`);
    const files = page.getByRole('table', { name: 'Export files' });
    await files.waitFor();
    await expect.poll(() => files.textContent()).toContain('No files yet');
    expect(await files.getByText(job.result_file).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('looks right at 1440x900 and 1024x700, light and dark: the Timeline page with its button, the Jobs view asking before a delete', { timeout: 240_000 }, async () => {
    // A finished job to ask about: a small one, through the app's own form.
    const setup = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    await setup.goto(`${app.skein.url}/#/jobs?new=timeline&user_id=${user.id}&max_count=25`);
    await setup.getByLabel('Job name').fill('Latest 25 posts');
    await setup.getByRole('button', { name: 'Start job' }).click();
    const table = setup.getByRole('grid', { name: 'Jobs' }).or(setup.getByRole('table', { name: 'Jobs' }));
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Latest 25 posts' }).textContent(), { timeout: 60_000 }).toContain('success');
    // And one whose file was deleted in Exports: its row has the most actions (Retry, File, Overview, Delete…).
    await setup.getByLabel('Job name').fill('File deleted');
    await setup.getByRole('button', { name: 'Start job' }).click();
    const fileDeleted = table.getByRole('row').filter({ hasText: 'File deleted' });
    await expect.poll(() => fileDeleted.textContent(), { timeout: 60_000 }).toContain('success');
    const jobId = Number(await fileDeleted.getByRole('cell').first().textContent());
    const deleted = await setup.evaluate(async (id) => {
      const res = await fetch('/app/rpc/exports.delete', { method: 'POST', headers: { 'content-type': 'application/json', 'x-skein-app': '1' }, body: JSON.stringify({ job_id: id }) });
      return res.status;
    }, jobId);
    expect(deleted).toBe(200);
    await setup.close();

    for (const [width, height] of [[1440, 900], [1024, 700]] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await app.browser.newContext({ viewport: { width, height }, colorScheme });
        const page = await logIn(await context.newPage(), app.skein);
        await page.goto(`${app.skein.url}/#/timeline?user=${encodeURIComponent(`@${user.screen_name}`)}`);
        await expect.poll(() => page.getByTestId('export-timeline-count').textContent()).toMatch(/^ [\d,]+ posts? without replies in the corpus$/);
        await expect.poll(() => page.getByTestId('timeline-status').textContent(), { timeout: 20_000 }).toMatch(/1 page loaded/);
        const button = page.getByTestId('export-timeline');
        expect(await button.isVisible()).toBe(true);
        // The button stays inside the content column at both widths.
        const box = (await button.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await shot(page, `timeline-export-button-${width}-${colorScheme}`);

        await page.goto(`${app.skein.url}/#/jobs`);
        const rows = page.getByRole('grid', { name: 'Jobs' }).or(page.getByRole('table', { name: 'Jobs' })).getByRole('row').filter({ hasText: 'Latest 25 posts' });
        await rows.first().waitFor();
        const del = rows.first().getByRole('button', { name: /^Delete job \d+…$/ });
        // Reachable without scrolling sideways: the actions column stays in view (sticky).
        expect(await del.isVisible()).toBe(true);
        // The widest set of actions fits its sticky column: nothing cut off at the right.
        const widest = page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'File deleted' });
        const retry = widest.getByRole('button', { name: 'Retry' });
        const last = widest.getByRole('button', { name: /^Delete job \d+…$/ });
        expect(await retry.isVisible()).toBe(true);
        const lastBox = (await last.boundingBox())!;
        const cellBox = (await widest.getByRole('cell').last().boundingBox())!;
        expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(cellBox.x + cellBox.width);
        await del.click();
        const confirm = page.getByTestId('delete-job-confirm');
        await confirm.waitFor();
        expect(await confirm.isVisible()).toBe(true);
        const bar = (await confirm.boundingBox())!;
        expect(bar.y + bar.height).toBeLessThanOrEqual(height + 1); // scrolled to the edge, to a fraction of a pixel
        await shot(page, `jobs-delete-confirm-${width}-${colorScheme}`);
        await confirm.getByRole('button', { name: 'Keep' }).click();
        await context.close();
      }
    }
  });
});
