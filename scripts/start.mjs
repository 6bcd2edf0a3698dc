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
    spawn(process.execPath, [join(root, 'out', 'main', 'cli.js'), 'serve', ...args], { stdio: 'inherit' }))
  : spawn(electron.path, [root, ...args], { stdio: 'inherit' });

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
