import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/main/engine/clock';
import { createEngine } from '../../src/main/engine/engine';
import { cancelJob, getJob, parseRepliesJob, startJobRunner, submitJob } from '../../src/main/engine/jobs';
import { partialDir } from '../../src/main/engine/jobs/files';
import { setStagedWriteLimit } from '../../src/main/engine/jobs/writers/staged-file';
import { fund } from '../fixtures/api-corpus';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { type SkeinProcess, startSkein } from '../helpers/skein-process';
import { createKey } from '../../src/main/engine/keys';

// Exports > Unfinished files in real Chromium against the built `skein serve` (issue 13). The
// data dir is prepared in this process: two reply jobs paused by a full disk (the staged-file
// writer's test limit, inline runner), the second then cancelled while it waited (its file stays:
// a cancel of a waiting job has no data dir to clean), and a file of no job. The page lists the
// three with their state and size; removing the ended ones is one click, removing the paused one
// asks first, after which the job collects again from row 0 and finishes in the server.

const BATCH = 50;

async function pausedJob(engine: ReturnType<typeof createEngine>, userId: number, bytes: number): Promise<number> {
  setStagedWriteLimit(partialDir(engine.dataDir), bytes);
  const jobId = submitJob(engine, userId, 'replies', parseRepliesJob(engine.db, ROOT_ID.toString(), { output_format: 'csv' }));
  const runner = startJobRunner(engine, { mode: 'inline', batchRows: BATCH });
  while (getJob(engine.db, jobId)!.last_error === null) await new Promise((r) => setTimeout(r, 5));
  await runner.stop();
  setStagedWriteLimit(partialDir(engine.dataDir), null);
  return jobId;
}

describe('Exports > Unfinished files', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  let paused: number;
  let cancelled: number;
  let key: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-unfinished-'));

  beforeAll(async () => {
    // Ten minutes ahead: the paused job's next try (a minute after its pause) stays in the future
    // while the page is tested, however slow the machine; the removal below makes it run at once.
    const engine = createEngine({ dataDir, clock: new ManualClock(Date.now() + 10 * 60_000) });
    writeConversation(engine.db, 300, 5);
    const created = createKey(engine, 'analyst');
    const user = created.user;
    key = created.key;
    fund(engine, user.id);
    paused = await pausedJob(engine, user.id, 40_000);
    cancelled = await pausedJob(engine, user.id, 10_000);
    cancelJob(engine.db, cancelled, engine.clock.nowMs());
    engine.close();
    writeFileSync(join(partialDir(dataDir), 'job999.csv'), 'x'.repeat(2048));
    skein = await startSkein(dataDir, ['--no-demo']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists what paused and ended jobs left, removes them, and a paused job starts again from row 0', async () => {
    const page = await logIn(await browser.newPage({ viewport: { width: 1280, height: 900 } }), skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${skein.url}/#/exports`);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Unfinished files' }) });
    const table = card.getByRole('grid', { name: 'Unfinished files' }).or(card.getByRole('table', { name: 'Unfinished files' }));
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    const rowOf = (name: string) => table.getByRole('row').filter({ hasText: name });
    expect(await rowOf(`job${paused}.csv`).textContent()).toContain('paused: disk full');
    expect(await rowOf(`job${paused}.csv`).textContent()).toContain('39 KiB');
    expect(await rowOf(`job${cancelled}.csv`).textContent()).toContain('ended (error)');
    expect(await rowOf('job999.csv').textContent()).toContain('no job');
    expect(await card.getByRole('list', { name: 'Paused by a full disk' }).textContent()).toMatch(new RegExp(`^Job ${paused}: The disk is full: writing .*job${paused}\\.csv needs about \\d+ MB more`));
    await screenshot(page, 'exports-unfinished');

    await card.getByRole('button', { name: 'Remove job999.csv' }).click();
    await expect.poll(() => rowOf('job999.csv').count()).toBe(0);
    await card.getByRole('button', { name: `Remove job${cancelled}.csv` }).click();
    await expect.poll(() => rowOf(`job${cancelled}.csv`).count()).toBe(0);

    // A waiting job's file: asked first, then removed, and the job runs again from row 0.
    await card.getByRole('button', { name: `Remove job${paused}.csv` }).click();
    const confirm = card.getByTestId('remove-partial-confirm');
    expect(await confirm.textContent()).toContain(`Job ${paused} waits to resume from this file`);
    await screenshot(page, 'exports-unfinished-confirm');
    await confirm.getByRole('button', { name: 'Remove and restart' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`job ${paused} collects again from row 0`);
    await expect.poll(() => card.count()).toBe(0);
    // The job finishes in the server (asked over the API: the setup's clock is ahead, so the
    // app's live events, which follow updated_at, would wait ten minutes); its file is listed.
    await expect
      .poll(async () => ((await (await fetch(`${skein.url}/jobs/${paused}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string }).status, { timeout: 60_000 })
      .toBe('success');
    await page.reload();
    const exportsTable = page.getByRole('grid', { name: 'Export files' }).or(page.getByRole('table', { name: 'Export files' }));
    await expect.poll(() => exportsTable.getByRole('row').filter({ hasText: `replies-${ROOT_ID}-job${paused}.csv` }).count()).toBe(1);
    await page.close();
  });
});
