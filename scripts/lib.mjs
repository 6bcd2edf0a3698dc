// Small helpers shared by the npm scripts (postinstall, start, test). Plain Node, no dependencies,
// so they work before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

export function binOf(pkg, bin = pkg) {
  const manifest = require(`${pkg}/package.json`);
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin];
  return join(dirname(require.resolve(`${pkg}/package.json`)), rel);
}

/** Runs a node script synchronously with inherited output; returns its exit status. */
export function runNode(script, args, options = {}) {
  const r = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit', cwd: root, ...options });
  return r.status ?? 1;
}

/** The Electron binary's path, or null with the reason it cannot be used. */
export function electronBinary() {
  let path;
  try {
    path = require('electron'); // the package's index.js returns the binary path, or throws
  } catch {
    // Electron's index.js throws "failed to install correctly" when its download failed or was
    // skipped, which is the expected state on machines that reach only the npm registry.
    return { path: null, why: "Electron's binary is not installed (its download failed or was skipped)" };
  }
  if (typeof path !== 'string' || !existsSync(path)) return { path: null, why: "Electron's binary is not installed" };
  return { path, why: null };
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** True when out/ is missing or older than any source file or build config. */
export function buildIsStale() {
  const stamp = join(root, 'out', 'main', 'cli.js');
  if (!existsSync(stamp) || !existsSync(join(root, 'out', 'renderer', 'index.html'))) return true;
  const built = statSync(stamp).mtimeMs;
  const inputs = [newestMtime(join(root, 'src')), statSync(join(root, 'electron.vite.config.ts')).mtimeMs, statSync(join(root, 'package.json')).mtimeMs];
  return Math.max(...inputs) > built;
}

export function build() {
  return runNode(binOf('electron-vite'), ['build']);
}
