import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { type SkeinProcess, startSkein } from '../helpers/skein-process';

describe('headless mode in a real browser', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-'));

  beforeAll(async () => {
    skein = await startSkein(dataDir);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the app page that a browser renders', async () => {
    const page = await logIn(await browser.newPage(), skein);
    await page.goto(skein.url);
    await expect(page.getByRole('heading', { name: 'Skein' }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, 'smoke-home');
  });

  it('stops cleanly on SIGTERM', async () => {
    const code = await skein.stop('SIGTERM');
    expect(code).toBe(0);
    expect(skein.output()).toContain('Skein is stopping (SIGTERM)');
  });
});
