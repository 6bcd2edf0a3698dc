import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { importTwarcPage, type SkeinProcess, startSkein } from '../helpers/skein-process';

// A post whose author a twarc2 page left out of includes.users (withheld or suspended) is kept
// with an id-only author; the app names that author in words, never as a bare "@".
const AUTHOR = '1358082450635829249';
const POST = '1404393119253250054';

describe('a post by an author known only by id (headless mode)', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-unknown-'));

  beforeAll(async () => {
    importTwarcPage(dataDir, {
      data: [{ id: POST, author_id: AUTHOR, text: 'A post whose author was withheld', created_at: '2021-06-14T10:59:46.000Z', conversation_id: POST }],
      includes: { users: [] },
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

  it('titles the post page and its header with "unknown author (id …)" and offers no search by name', async () => {
    const page = await logIn(await browser.newPage({ viewport: { width: 1024, height: 800 } }), skein);
    await page.goto(`${skein.url}/#/post/${POST}`);
    await page.locator('.tweet-text').waitFor();
    const label = `unknown author (id ${AUTHOR})`;
    await expect.poll(() => page.title()).toBe(`Post by ${label} — Skein`);
    expect(await page.getByText(`by ${label}`, { exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Search this author' }).count()).toBe(0);
    await screenshot(page, 'post-unknown-author');
    await page.close();
  });
});
