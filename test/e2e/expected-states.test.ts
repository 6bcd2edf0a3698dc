import { beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { ConsoleMessage } from 'playwright-core';
import { join } from 'node:path';
import { logIn } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Expected states are not console errors (issue 15 "Restarts and failures"): a query with a syntax
// error, a user not found and a protected timeline each show their message in the page, and the
// browser's console stays free of errors (a refused app call used to be a failed request, which
// Chromium logs as an error).

describe('expected states (headless mode, demo corpus)', () => {
  const app = demoApp('skein-e2e-states-');
  let protectedUser: string;

  beforeAll(async () => {
    const db = new Database(join(app.dataDir, 'skein.db'), { readonly: true });
    protectedUser = db.prepare('SELECT screen_name FROM social_users WHERE protected = 1 ORDER BY id LIMIT 1').pluck().get() as string;
    db.close();
  });

  it('shows a syntax error, an unknown user and a protected timeline in the page, with no console error', async () => {
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1440, height: 900 } }), app.skein);
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${app.skein.url}/#/search?q=${encodeURIComponent('(cats')}`);
    await page.getByText('The query has a mistake').waitFor();

    await page.goto(`${app.skein.url}/#/timeline?user=nobody_here_at_all`);
    await page.getByRole('alert').filter({ hasText: /not found|no user/i }).first().waitFor();

    expect(protectedUser).toBeTruthy();
    await page.goto(`${app.skein.url}/#/timeline?user=${protectedUser}`);
    await page.getByRole('alert').filter({ hasText: /protected/i }).first().waitFor();

    expect(errors).toEqual([]);
    await page.close();
  });
});
