import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Settings in real Chromium against the built `skein serve`: the key form's starting credits are
// the new user's whole balance, and the ledger shows the available balance after each line.
// Screenshot: test-results/screenshots/settings-ledger.png.

const AVAILABLE_AFTER = 5; // When, Kind, Status, Change, Held, Available (after the line), For
const digits = (s: string | null) => (s ?? '').replace(/\D/g, '');

describe('Settings: starting credits and the running balance', () => {
  const app = demoApp('skein-e2e-ledger-', ['--no-demo']);
  let page: Page;

  beforeAll(async () => {
    page = await logIn(await app.browser.newPage({ viewport: { width: 1360, height: 1000 } }), app.skein);
    page.on('pageerror', (e) => console.error('page error:', e.message));
  });

  it('creates a user with exactly 3 credits and shows the balance after each ledger line', async () => {
    await page.goto(`${app.skein.url}/#/settings`);
    await page.getByLabel('Key user').fill('budget');
    await page.getByLabel('Starting credits').fill('3');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByTestId('new-key').textContent()).toMatch(/^sk_/);

    const userRow = page.locator('[aria-label="API users"] .body-row', { hasText: 'budget' });
    await expect.poll(() => userRow.locator('[role=cell]').nth(1).textContent()).toBe('3');
    await userRow.click();
    const lines = page.locator('[aria-label="Ledger of budget"] .body-row');
    await expect.poll(() => lines.count()).toBe(1);
    expect(await lines.first().textContent()).toContain('opening balance');
    expect(await lines.first().locator('[role=cell]').nth(AVAILABLE_AFTER).textContent()).toBe('3');

    await page.getByLabel('Credits to grant').fill('1000');
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await expect.poll(() => lines.count()).toBe(2);
    // newest first: the grant brings the balance to 1,003; the opening line still says 3
    expect(digits(await lines.nth(0).locator('[role=cell]').nth(AVAILABLE_AFTER).textContent())).toBe('1003');
    expect(digits(await lines.nth(1).locator('[role=cell]').nth(AVAILABLE_AFTER).textContent())).toBe('3');
    expect(digits(await page.getByTestId('available-credits').textContent())).toBe('1003');
    await page.locator('[aria-label="Ledger of budget"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-ledger');
  });

  it('adds a key to an existing user without touching its credits: the field is off and says why', async () => {
    await page.goto(`${app.skein.url}/#/settings`);
    await page.getByLabel('Key user').fill('BUDGET');
    await expect.poll(() => page.getByLabel('Starting credits').isDisabled()).toBe(true);
    expect(await page.getByTestId('starting-credits-hint').textContent()).toContain('budget exists');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByTestId('new-key').textContent()).toMatch(/^sk_/);
    await expect.poll(() => page.locator('[aria-label="API keys"] .body-row', { hasText: 'budget' }).count()).toBe(2);
    const userRow = page.locator('[aria-label="API users"] .body-row', { hasText: 'budget' });
    expect(digits(await userRow.locator('[role=cell]').nth(1).textContent())).toBe('1003');
  });

  it('refuses starting credits that are not a whole number, and makes a user with 0', async () => {
    await page.goto(`${app.skein.url}/#/settings`);
    await page.getByLabel('Key user').fill('zero');
    await page.getByLabel('Starting credits').fill('12abc');
    await expect.poll(() => page.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('starting-credits-hint').textContent()).toContain('whole number');
    await page.getByLabel('Starting credits').fill('0');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByTestId('new-key').textContent()).toMatch(/^sk_/);
    const userRow = page.locator('[aria-label="API users"] .body-row', { hasText: 'zero' });
    await expect.poll(() => userRow.locator('[role=cell]').nth(1).textContent()).toBe('0');
    await userRow.click();
    await page.locator('[aria-label="Ledger of zero"]').getByText('No transfers yet.').waitFor();
  });
});
