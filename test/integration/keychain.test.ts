import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKeychain } from '../../src/main/desktop/keychain';

// The keychain adapter with the real keytar: inside a D-Bus session with an unlocked
// gnome-keyring (a real Secret Service), and with no keyring at all. Each case runs in its own
// process, because keytar binds to the session bus of the process that loads it.
const child = join(__dirname, 'keychain-child.ts');
const repo = join(__dirname, '..', '..');

function run(command: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const r = spawnSync('sh', ['-c', command], { cwd: repo, env, encoding: 'utf8', timeout: 60_000 });
  const line = r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (!line) throw new Error(`no result from the child (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe('keychain adapter (keytar)', () => {
  it('stores, reads and deletes a secret in a real Secret Service (gnome-keyring in a D-Bus session)', () => {
    const out = run(
      `dbus-run-session -- sh -c 'echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null; "${process.execPath}" --import tsx "${child}"'`,
      { ...process.env },
    );
    expect(out).toEqual({
      available: true,
      read: 'sk_secret_value_1',
      missing: null,
      refused: "keychain: bad account name 'bad account!'",
      deleted: true,
      after: null,
    });
  });

  it('says clearly that no keyring exists when there is no Secret Service', () => {
    const env = { ...process.env };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.DISPLAY;
    const out = run(`"${process.execPath}" --import tsx "${child}"`, env);
    expect(out.available).toBe(false);
    expect(out.reason).toMatch(/^No OS keychain is available/);
    expect(out.reason).toMatch(/Secret Service/);
  });

  it('reports a keytar that cannot load as "no keyring", not a crash', async () => {
    const status = await openKeychain(() => {
      throw new Error('Cannot find module keytar');
    });
    expect(status).toMatchObject({ available: false });
    expect(status.available === false && status.reason).toContain('keytar could not be loaded: Cannot find module keytar');
  });
});
