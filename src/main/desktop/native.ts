import { existsSync } from 'node:fs';
import { join } from 'node:path';

// Electron's ABI differs from Node's: the desktop shell loads the better-sqlite3 copy that
// scripts/native-electron.mjs rebuilt for Electron under native/electron (docs/decisions.md
// "Native modules"). When it is missing it falls back to node_modules, which only works if
// that build happens to match, and says so.
const root = join(__dirname, '..', '..');
const nativeModules = join(root, 'native', 'electron', 'node_modules');

export function betterSqliteBinding(): string | undefined {
  const file = join(nativeModules, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  return existsSync(file) ? file : undefined;
}

