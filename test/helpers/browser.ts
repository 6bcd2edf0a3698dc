import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot, type SkeinProcess } from './skein-process';

export const CHROMIUM = process.env.SKEIN_CHROMIUM ?? '/usr/bin/chromium';

// These flags keep Chromium off a network that refuses it (background services, updates, sync)
// and make it run as root in a container without a GPU.
const FLAGS = ['--no-sandbox', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Headless by default. `headful` (the table bench's SKEIN_BENCH_HEADFUL=1) opens a real window on
 * the display in $DISPLAY (`xvfb-run` gives one), where Chromium paces frames by the screen's
 * refresh rather than headless mode's software timer.
 */
export async function launchChromium(options: { headful?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Playwright gives each launch its own temporary profile (it refuses --user-data-dir here).
    args: options.headful ? FLAGS : ['--headless', '--disable-gpu', ...FLAGS],
    headless: !options.headful,
  });
}

/**
 * Logs the page's browser context in to the app, as a person does: it opens the address `skein
 * serve` printed (.../?token=...), which sets the session cookie and lands on the app at `/`. Every
 * page of that context is then logged in, also after a restart on the same data dir. The page is
 * left blank, so a test's first `goto` loads the app afresh, as it would without a login.
 */
export async function logIn(page: Page, skein: Pick<SkeinProcess, 'loginUrl'>): Promise<Page> {
  await page.goto(skein.loginUrl);
  const landed = new URL(page.url());
  if (landed.pathname !== '/' || landed.search !== '') throw new Error(`The login address did not land on the app: ${page.url()}`);
  await page.goto('about:blank');
  return page;
}

export const screenshotDir = join(repoRoot, 'test-results', 'screenshots');

/** Saves a screenshot of what a person would see under test-results/screenshots/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
