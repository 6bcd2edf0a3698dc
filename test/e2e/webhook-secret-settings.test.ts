import { describe, expect, it } from 'vitest';
import { dbFileOf } from '../../src/main/engine/engine';
import { openDb } from '../../src/main/engine/store/db';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Settings > Webhook sets the signing secret (issue 13 point 13). Where no OS keychain answers (no
// D-Bus session, as on a server or in CI), the secret is kept in the database, and the page says so
// and why before and after it is set; a secret that cannot sign is refused with the reason.
describe('the webhook signing secret in Settings where no keychain answers (headless mode)', () => {
  // No session bus to find, and no display for libdbus to autolaunch one through.
  const app = demoApp('skein-e2e-webhook-secret-', ['--no-demo'], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/skein-no-bus', DISPLAY: '' });

  function storedSecret(): unknown {
    const db = openDb(dbFileOf(app.dataDir));
    try {
      return db.prepare(`SELECT webhook_secret, webhook_secret_ref FROM api_users WHERE name = 'app'`).get();
    } finally {
      db.close();
    }
  }

  it('keeps the secret in the database, says where and why, refuses one that cannot sign, and removes it', async () => {
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1024, height: 900 } }), app.skein);
    await page.goto(`${app.skein.url}/#/settings`);
    const message = page.getByTestId('webhook-secret-message');
    // Said once the app knows no keychain answers; until then the message guesses nothing.
    await message.getByText('Not signed. No OS keychain answers here, so a secret you set is kept in the database in the data dir, which only your account can read.', { exact: true }).waitFor();

    const input = page.getByLabel('Webhook signing secret');
    await input.fill('short');
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByTestId('webhook-secret-panel').getByText("Invalid parameter 'secret': from 16 to 256 characters (this one has 5).").waitFor();
    expect(storedSecret()).toEqual({ webhook_secret: null, webhook_secret_ref: null });

    const secret = 'typed-in-settings-0123456789';
    await input.fill(secret);
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByText('Deliveries are signed (X-Skein-Signature). No OS keychain answers here, so the secret is kept in the database in the data dir, which only your account can read.').waitFor();
    expect(await input.inputValue()).toBe('');
    expect(storedSecret()).toEqual({ webhook_secret: secret, webhook_secret_ref: null });
    await message.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-webhook-secret-in-database');

    await page.getByRole('button', { name: 'Remove secret' }).click();
    await page.getByText('Not signed. No OS keychain answers here').waitFor();
    expect(storedSecret()).toEqual({ webhook_secret: null, webhook_secret_ref: null });
    await page.close();
  });
});
