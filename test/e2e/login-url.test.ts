import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, logIn, screenshot } from '../helpers/browser';
import { type SkeinProcess, startSkein } from '../helpers/skein-process';
import { freePort } from '../helpers/free-port';

// Headless mode's login (issue 13, point 14), in Chromium against a real `skein serve`: the
// address it prints logs the browser in and lands on the app with a clean address bar; without
// it the browser gets a page that says how to get in, and no secret.

describe('logging in to the app with the address skein serve prints', () => {
  let skein: SkeinProcess;
  let browser: Browser;
  let token: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-login-'));

  beforeAll(async () => {
    skein = await startSkein(dataDir, ['--no-demo']);
    token = new URL(skein.loginUrl).searchParams.get('token') ?? '';
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints an address that ends in ?token= with the data dir\'s 64-hex-digit token', async () => {
    expect(skein.loginUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    await expect.poll(() => skein.output()).toContain('skein app-url --port');
  });

  it('lands on the app, with no token in the address bar, and keeps the cookie from scripts', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    const page = await context.newPage();
    const response = await page.goto(skein.loginUrl);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${skein.url}/`);
    await page.getByRole('heading', { name: 'Skein' }).first().waitFor();
    // The app works: Settings loads over /app/rpc with the cookie alone.
    await page.goto(`${skein.url}/#/settings`);
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    const [cookie] = await context.cookies(skein.url);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie!.value).not.toBe(token);
    expect(await page.evaluate('document.cookie')).toBe('');
    expect(await page.content()).not.toContain(token);
    await context.close();
  });

  it('shows a browser that is not logged in how to get in, and no token', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    const response = await page.goto(`${skein.url}/#/settings`);
    expect(response?.status()).toBe(403);
    await page.getByRole('heading', { name: 'Open Skein with its login address' }).waitFor();
    const text = await page.locator('body').innerText();
    expect(text).toContain('?token=');
    expect(text).toMatch(/npx skein app-url --port \d+/);
    expect(await page.content()).not.toContain(token);
    await screenshot(page, 'login-page-1024');
    await page.close();
  });

  it('refuses a wrong token with the same page and says why', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    const response = await page.goto(`${skein.url}/?token=${'0'.repeat(64)}`);
    expect(response?.status()).toBe(403);
    await page.getByText('The token in that address is not this Skein\'s').waitFor();
    // Not logged in afterwards either.
    expect((await page.goto(skein.url))?.status()).toBe(403);
    await page.close();
  });
});


describe('a tab whose login ends (the token file replaced, the server restarted)', () => {
  let skein: SkeinProcess | undefined;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-e2e-logout-'));

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await skein?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows how to log in again instead of failing call after call', async () => {
    const port = String(await freePort());
    skein = await startSkein(dataDir, ['--no-demo', '--port', port]);
    const page = await logIn(await browser.newPage({ viewport: { width: 1024, height: 800 } }), skein);
    await page.goto(`${skein.url}/#/settings`);
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    await skein.stop();
    // Deleting the token file logs every browser out: the next start makes a new token.
    rmSync(join(dataDir, 'app-login-token'));
    skein = await startSkein(dataDir, ['--no-demo', '--port', port]);
    await page.getByRole('heading', { name: 'Open Skein with its login address' }).waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(`${skein.url}/`);
    // The new address logs the same browser in again.
    await page.goto(skein.loginUrl);
    await page.goto(`${skein.url}/#/settings`);
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    await page.close();
  });
});
