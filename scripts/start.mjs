// `npm start`: the desktop app where Electron can run, headless mode otherwise, saying why in one
// line. Extra arguments go to `skein serve` (for example `npm start -- --port 7999`).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build, buildIsStale, electronBinary, root } from './lib.mjs';

if (buildIsStale() && build() !== 0) process.exit(1);

const args = process.argv.slice(2);
const electron = electronBinary();
const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const nativeReady = existsSync(join(root, 'native', 'electron', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));

let why = null;
if (!electron.path) why = electron.why;
else if (!hasDisplay) why = 'no display is available (DISPLAY and WAYLAND_DISPLAY are unset)';
else if (!nativeReady) why = 'the native modules are not built for Electron (run `node scripts/native-electron.mjs`)';

const child = why
  ? (console.log(`Starting Skein in headless mode: ${why}.`),
    spawn(process.execPath, [join(root, 'out', 'main', 'cli.js'), 'serve', ...args], { stdio: ['inherit', 'pipe', 'inherit'] }))
  : spawn(electron.path, [root, ...args], { stdio: 'inherit' });

// Headless mode with a display (no Electron here, but a desktop): open the login address that
// `skein serve` prints in the default browser, as Jupyter does. Not without a display, not in CI,
// not with SKEIN_NO_BROWSER=1; the address stays in the terminal either way.
if (why) {
  const wantBrowser = hasDisplay && !process.env.CI && !process.env.SKEIN_NO_BROWSER;
  let opened = false;
  let pending = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (opened || !wantBrowser) return;
    pending += chunk.toString('utf8');
    const ready = /Skein is running at (http:\/\/\S+\?token=[0-9a-f]+)/.exec(pending);
    if (!ready) {
      pending = pending.slice(-4096);
      return;
    }
    opened = true;
    openInBrowser(ready[1]);
  });
}

function openInBrowser(url) {
  const [command, argv] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const opener = spawn(command, argv, { stdio: 'ignore', detached: true });
  opener.on('error', () => console.log(`(Could not start ${command} to open the browser: open the address above yourself.)`));
  opener.unref();
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
