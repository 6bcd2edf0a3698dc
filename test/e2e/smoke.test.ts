import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

describe('headless mode in a real browser', () => {
  const app = demoApp('skein-e2e-');

  it('serves the app page that a browser renders', async () => {
    const page = await logIn(await app.browser.newPage(), app.skein);
    await page.goto(app.skein.url);
    await expect(page.getByRole('heading', { name: 'Skein' }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, 'smoke-home');
  });

  it('stops cleanly on SIGTERM', async () => {
    const code = await app.skein.stop('SIGTERM');
    expect(code).toBe(0);
    expect(app.skein.output()).toContain('Skein is stopping (SIGTERM)');
  });
});
