import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/skein-process';
import { tempDir } from '../helpers/temp';

// `npm start` in headless mode opens the login address `skein serve` prints in the browser where a
// display exists (issue 13, point 14: Jupyter's model). The system's opener (xdg-open) is stood in
// for by a script that writes down what it was asked to open; Skein itself runs for real.

const electronInstalled = (() => {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path);
  } catch {
    return false;
  }
})();

async function startAndWait(env: NodeJS.ProcessEnv, opened: string): Promise<{ ready: string; opened: string | null }> {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'start.mjs'), '--port', '0', '--no-demo', '--data-dir', tempDir()], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += String(c)));
  try {
    const ready = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 60_000);
      child.stdout.on('data', () => {
        const m = /Skein is running at (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    // The opener is started right after the ready line; give it a moment to write.
    for (let i = 0; i < 50 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 100));
    return { ready, opened: existsSync(opened) ? readFileSync(opened, 'utf8').trim() : null };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

describe.skipIf(electronInstalled || process.platform !== 'linux')('npm start in headless mode', () => {
  function stubOpener() {
    const bin = tempDir();
    const opened = join(bin, 'opened.txt');
    // Written aside and renamed: the shell creates the file before printf fills it, and a read in
    // between saw an empty file (failed once under load).
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}.part' && mv '${opened}.part' '${opened}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    return { bin, opened };
  }

  it('opens the login address in the browser where a display exists', async () => {
    const { bin, opened } = stubOpener();
    const r = await startAndWait({ ...process.env, PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0', CI: '', SKEIN_NO_BROWSER: '' }, opened);
    expect(r.ready).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    expect(r.opened).toBe(r.ready);
  });

  it('opens nothing without a display, or with SKEIN_NO_BROWSER=1', async () => {
    for (const env of [{ DISPLAY: '', WAYLAND_DISPLAY: '' }, { DISPLAY: ':0', SKEIN_NO_BROWSER: '1' }]) {
      const { bin, opened } = stubOpener();
      const r = await startAndWait({ ...process.env, PATH: `${bin}:${process.env.PATH}`, CI: '', ...env }, opened);
      expect(r.ready).toMatch(/\?token=/);
      expect(r.opened).toBeNull();
    }
  });
});
