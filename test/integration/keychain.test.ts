import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKeychain } from '../../src/main/platform/keychain';

// The keychain adapter with the real @napi-rs/keyring: inside a D-Bus session with an unlocked
// gnome-keyring (a real Secret Service), with a locked one, and with no keyring at all. Each case
// runs in its own process, because the binding talks to the session bus of the process's env.
const child = join(__dirname, 'keychain-child.ts');
const repo = join(__dirname, '..', '..');

function run(command: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const r = spawnSync('sh', ['-c', command], { cwd: repo, env, encoding: 'utf8', timeout: 60_000 });
  const line = r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (!line) throw new Error(`no result from the child (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe('keychain adapter (@napi-rs/keyring)', () => {
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

  it('reports a locked keyring as not available, since reads answer there but writes are refused', () => {
    // gnome-keyring started without --unlock: a read answers null, a write asks for an unlock
    // prompt that cannot be shown here and is dismissed.
    const out = run(
      `dbus-run-session -- sh -c 'gnome-keyring-daemon --components=secrets >/dev/null </dev/null; "${process.execPath}" --import tsx "${child}"'`,
      { ...process.env, DISPLAY: '' },
    );
    expect(out.available).toBe(false);
    expect(out.reason).toMatch(/^No OS keychain is available/);
    expect(out.reason).toMatch(/dismissed|locked/i);
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

  it('reports a keyring module that cannot load as "no keyring", not a crash', async () => {
    const status = await openKeychain(() => {
      throw new Error('Cannot find module @napi-rs/keyring');
    });
    expect(status).toMatchObject({ available: false });
    expect(status.available === false && status.reason).toContain('the keyring module could not be loaded: Cannot find module @napi-rs/keyring');
  });

  it('installs from npm alone: no keytar, and a prebuilt binding for this platform with no install script', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const lock = readFileSync(join(repo, 'package-lock.json'), 'utf8');
    expect(Object.keys(pkg.dependencies)).not.toContain('keytar');
    expect(lock).not.toContain('node_modules/keytar');
    expect(pkg.dependencies['@napi-rs/keyring']).toMatch(/^\d+\.\d+\.\d+$/); // pinned
    const scope = join(repo, 'node_modules', '@napi-rs');
    const platformName = readdirSync(scope).find((d) => d.startsWith(`keyring-${process.platform}-${process.arch}`));
    const platformDir = join(scope, platformName ?? 'no-prebuilt-binding-for-this-platform');
    const platformPkg = JSON.parse(readFileSync(join(platformDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(platformPkg.scripts?.install ?? platformPkg.scripts?.postinstall).toBeUndefined();
    expect(readdirSync(platformDir).some((f) => f.endsWith('.node'))).toBe(true);
    // CI proves a fresh machine needs no libsecret headers: .ci/run does not install them.
    expect(readFileSync(join(repo, '.ci', 'run'), 'utf8')).not.toMatch(/libsecret-1-dev/);
  });
});
