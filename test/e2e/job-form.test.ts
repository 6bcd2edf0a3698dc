import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// The job form's messages (issue 15 "Forms, messages and layout"): nothing red before anything is
// typed; a bad id says so; a query with a mistake is marked as on Search and Start stays off; an
// unknown post's error shows once; the "available" figure follows the balance after a job charges.

describe('the job form (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-jobform-');

  it('prompts before it complains, marks a query mistake, shows an unknown post once, and keeps "available" current', async () => {
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    await page.goto(`${app.skein.url}/#/jobs`);
    const foot = page.getByTestId('credit-hold');
    const start = page.getByRole('button', { name: 'Start job' });
    await foot.getByText('Give the id of the post whose replies to collect.').waitFor();
    expect(await foot.locator('.error-text').count()).toBe(0);
    expect(await start.isDisabled()).toBe(true);

    await page.getByRole('textbox', { name: /^Post id/ }).fill('12ab');
    expect(await foot.locator('.error-text').textContent()).toBe('The post id must be a number.');
    await page.getByRole('textbox', { name: /^Post id/ }).fill('1234567890123456789');
    await foot.locator('.error-text').filter({ hasText: /not found/i }).waitFor();
    expect(await page.getByText(/Tweet 1234567890123456789 was not found/).count()).toBe(1); // once
    expect(await start.isDisabled()).toBe(true);

    await page.getByRole('tab', { name: 'Search results' }).click();
    await page.getByPlaceholder('#opendata -filter:replies').fill('lang:en (cats');
    await page.locator('mark.query-error').waitFor();
    expect(await start.isDisabled()).toBe(true);
    await screenshot(page, 'job-form-query-mistake');

    await page.getByPlaceholder('#opendata -filter:replies').fill('lang:en');
    await page.getByLabel('Maximum posts').fill('25');
    const available = async () => Number((/([\d,]+) available/.exec((await foot.textContent()) ?? '')?.[1] ?? 'NaN').replace(/,/g, ''));
    await expect.poll(available).toBeGreaterThan(0);
    const before = await available();
    await start.click();
    const row = page.locator('[aria-label="Jobs"] .body-row').first();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('success');
    // The 25 rows it wrote (the app's own calls are free): the figure follows without a reload.
    await expect.poll(available, { timeout: 10_000 }).toBe(before - 25);
    await page.close();
  });
});
