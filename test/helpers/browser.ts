import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot } from './skein-process';

export const CHROMIUM = process.env.SKEIN_CHROMIUM ?? '/usr/bin/chromium';

// These flags keep Chromium off a network that refuses it (background services, updates, sync)
// and make it run as root in a container without a GPU.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Playwright gives each launch its own temporary profile (it refuses --user-data-dir here).
    args: FLAGS,
    headless: true,
  });
}

export const screenshotDir = join(repoRoot, 'test-results', 'screenshots');

/** Saves a screenshot of what a person would see under test-results/screenshots/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
