import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { revokeKey } from '../../src/main/engine/keys';
import { maskKey } from '../../src/main/engine/upstream/key-source';
import { AUTHOR_ID } from '../fixtures/api-corpus';
import { logIn } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';
import { upstreamSkein } from '../helpers/upstream-skein';

// Settings > Sources in real Chromium against the built `skein serve` (Skein B, no keychain, no
// SKEIN_UPSTREAM_KEY), with a second real Skein (A, in this process, on loopback) as its upstream:
// the form sets the source, the key is asked once for the session, the test shows A's balance
// beside B's own figures, a timeline browsed in the app comes through A and shows in the totals,
// and a revoked key is shown as invalid with A's reason. Screenshots: /tmp/skein-shots/.

const SHOTS = '/tmp/skein-shots';
const digits = (s: string | null) => (s ?? '').replace(/\D/g, '');

describe('Settings > Sources against a second Skein', () => {
  const app = demoApp('skein-e2e-sources-', ['--no-demo'], { DBUS_SESSION_BUS_ADDRESS: '', SKEIN_UPSTREAM_KEY: '' });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
  });

  async function shoot(page: Page, name: string) {
    const section = page.locator('section.sources');
    for (const width of [1440, 1024]) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        // what a person sees on opening Settings, then the whole section in a window tall enough for it
        await page.setViewportSize({ width, height: 900 });
        await page.locator('.content').evaluate((e) => e.scrollTo(0, 0));
        await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`) });
        await page.setViewportSize({ width, height: 2400 });
        await section.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}-section.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  it('sets up a source in the form, asks for the key once, tests it, and shows the balance and the totals', async () => {
    const a = await upstreamSkein();
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${app.skein.url}/#/settings`);
    const sources = page.locator('section.sources');
    expect(await sources.getByTestId('source-url').textContent()).toBe('None: reads use only your corpus');
    // no keychain here: the key is asked for this session, and the page says why
    expect(await sources.getByTestId('key-store-message').textContent()).toBe(
      'No OS keychain answers here, so the key is kept in memory until Skein stops; set SKEIN_UPSTREAM_KEY to avoid typing it.',
    );
    expect(await sources.getByText('Skein needs the upstream API key once per session.').isVisible()).toBe(true);
    await shoot(page, 'sources-new');

    await sources.getByLabel('Upstream URL').fill(a.server.url);
    await sources.getByLabel('Upstream profile').selectOption('spec');
    await sources.getByLabel('Budget in items').fill('5,000');
    expect(await sources.getByTestId('budget-usd').textContent()).toBe('= $1.00 at $0.0002 an item');
    await sources.getByLabel('Fresh for: Posts').fill('2 h');
    await sources.getByRole('button', { name: 'Add source' }).click();
    await expect.poll(() => sources.getByTestId('source-url').textContent()).toContain(a.server.url);
    expect(await sources.getByTestId('source-mode').textContent()).toBe('Cache first');
    expect(await sources.getByLabel('Fresh for: Posts').inputValue()).toBe('2 h');

    await sources.getByLabel('Upstream API key').fill(a.key);
    await sources.getByRole('button', { name: 'Use for this session' }).click();
    // saving the key runs the test: A's balance (credits on profile spec) beside B's own figures
    const account = (await a.server.request('/social/account', { key: a.key })).json() as { credits: { available: number } };
    await expect.poll(() => sources.getByTestId('upstream-balance').textContent().catch(() => '')).toContain('credits');
    expect(digits((await sources.getByTestId('upstream-balance').textContent())!.split('credits')[0]!)).toBe(String(account.credits.available));
    expect(await sources.getByTestId('our-budget').textContent()).toBe('5,000 items · $1.00');
    await expect.poll(() => sources.getByTestId('key-status').textContent()).toContain('valid');
    expect(await sources.getByTestId('key-status').textContent()).toContain(maskKey(a.key));
    expect(await sources.getByTestId('key-status').textContent()).toContain('typed here, kept until Skein stops');
    expect(await sources.getByText('Skein needs the upstream API key once per session.').count()).toBe(0);
    expect(await page.content()).not.toContain(a.key);

    // browse a timeline in the app: it comes through A, and B's totals show what it cost
    await page.goto(`${app.skein.url}/#/timeline?user=${AUTHOR_ID}`);
    await expect.poll(() => page.getByTestId('timeline-status').textContent(), { timeout: 30_000 }).toMatch(/^20 posts/);
    await page.goto(`${app.skein.url}/#/settings`);
    // 1 user profile + a page of 20 posts = 21 items, $0.0042 at $0.0002
    await expect.poll(() => sources.getByTestId('spend-today').textContent()).toBe('21 items · $0.0042');
    expect(await sources.getByTestId('spend-month').textContent()).toBe('21 items · $0.0042');
    expect(await sources.getByTestId('spend-all').textContent()).toBe('21 items · $0.0042 · 2 requests');
    expect(await sources.getByTestId('budget-left').textContent()).toBe('4,979 items · $0.9958 of 5,000');
    const row = sources.locator('[aria-label="Upstream spending by local user"] .body-row');
    expect(await row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('The app (browsing)');
    await sources.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => sources.getByTestId('our-month').textContent()).toBe('21 items · $0.0042');
    await shoot(page, 'sources-connected');
    await page.close();
  });

  it("shows a revoked key prominently as invalid, with the upstream's reason", async () => {
    const a = await upstreamSkein();
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    await page.goto(`${app.skein.url}/#/settings`);
    const sources = page.locator('section.sources');
    await sources.getByLabel('Upstream URL').fill(a.server.url);
    await sources.getByLabel('Upstream profile').selectOption('spec');
    await sources.getByRole('button', { name: 'Save source' }).click();
    await expect.poll(() => sources.getByTestId('source-url').textContent()).toContain(a.server.url);
    await sources.getByLabel('Upstream API key').fill(a.key);
    await sources.getByRole('button', { name: 'Use for this session' }).click();
    await expect.poll(() => sources.getByTestId('key-status').textContent()).toContain('valid');

    revokeKey(a.engine, a.key);
    await sources.getByRole('button', { name: 'Test connection' }).click();
    const alert = sources.getByTestId('key-invalid');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The upstream refused the API key (HTTP 401)');
    // the test's failure is that alert, not a second box with the same words
    expect(await sources.getByTestId('test-result').count()).toBe(0);
    await sources.getByRole('button', { name: 'Enter a new key' }).click();
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toBe('Upstream API key');
    expect(await sources.getByTestId('key-status').textContent()).toContain('invalid');
    expect(await page.content()).not.toContain(a.key);
    await shoot(page, 'sources-key-invalid');
    await page.close();
  });
});
