import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { type SkeinProcess, startSkein } from '../helpers/skein-process';

// Where no Secret Service runs (no D-Bus session, as on a server or in CI), headless mode still
// starts, says so in one line, and Settings > Data names the keychain's state and why.
describe('the keychain where none answers (headless mode)', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-keychain-'));

  beforeAll(async () => {
    skein = await startSkein(dataDir, ['--no-demo'], { DBUS_SESSION_BUS_ADDRESS: '' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, and Settings says the keychain is not available and why', async () => {
    expect(skein.output()).toContain('No OS keychain answers here');
    const page = await logIn(await browser.newPage({ viewport: { width: 1024, height: 800 } }), skein);
    await page.goto(`${skein.url}/#/settings`);
    const state = page.getByTestId('keychain');
    await state.waitFor();
    expect(await state.textContent()).toMatch(/^Not available · No OS keychain is available.*Secret Service/);
    await state.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-keychain-missing');
    await page.close();
  });
});
