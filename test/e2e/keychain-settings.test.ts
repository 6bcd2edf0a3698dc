import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from '../helpers/browser';
import { demoApp } from '../helpers/demo-app';

// Where no Secret Service runs (no D-Bus session, as on a server or in CI), headless mode still
// starts, says so in one line, and Settings > Data names the keychain's state and why.
describe('the keychain where none answers (headless mode)', () => {
  const app = demoApp('skein-e2e-keychain-', ['--no-demo'], { DBUS_SESSION_BUS_ADDRESS: '' });

  it('starts, and Settings says the keychain is not available and why', async () => {
    expect(app.skein.output()).toContain('No OS keychain answers here');
    const page = await logIn(await app.browser.newPage({ viewport: { width: 1024, height: 800 } }), app.skein);
    await page.goto(`${app.skein.url}/#/settings`);
    const state = page.getByTestId('keychain');
    await state.waitFor();
    expect(await state.textContent()).toMatch(/^Not available · No OS keychain is available.*Secret Service/);
    await state.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-keychain-missing');
    await page.close();
  });
});
