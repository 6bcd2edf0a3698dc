// Electron's ABI differs from Node's, so one build of better-sqlite3 cannot serve both.
// node_modules keeps the Node build (tests, CLI, headless mode); this script copies the package
// to native/electron/ and rebuilds that copy against Electron's headers. The desktop shell loads
// the copy (src/main/desktop/native.ts); nothing else ever sees it. The keychain binding,
// @napi-rs/keyring, is N-API: one prebuilt binary serves Node and Electron, so it is not copied.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './lib.mjs';

const require = createRequire(join(root, 'package.json'));
export const NATIVE_MODULES = ['better-sqlite3'];
// Packages the native modules require at run time, copied beside them.
const RUNTIME_DEPS = ['bindings', 'file-uri-to-path'];

export async function buildNativeForElectron() {
  const electronVersion = require('electron/package.json').version;
  const target = join(root, 'native', 'electron');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, 'node_modules'), { recursive: true });
  for (const name of [...NATIVE_MODULES, ...RUNTIME_DEPS]) {
    const src = join(root, 'node_modules', name);
    if (!existsSync(src)) continue;
    cpSync(src, join(target, 'node_modules', name), {
      recursive: true,
      filter: (p) => !p.includes(`${name}/build`) || NATIVE_MODULES.indexOf(name) === -1,
    });
  }
  writeFileSync(join(target, 'package.json'), JSON.stringify({ name: 'skein-native-electron', private: true,
    dependencies: Object.fromEntries(NATIVE_MODULES.map((m) => [m, require(`${m}/package.json`).version])) }, null, 2));
  try {
    const { rebuild } = require('@electron/rebuild');
    // npm's nodedir setting points node-gyp at Node's headers; Electron needs its own.
    delete process.env.npm_config_nodedir;
    await rebuild({ buildPath: target, electronVersion, onlyModules: NATIVE_MODULES, force: true, mode: 'sequential' });
    console.log(`skein: built ${NATIVE_MODULES.join(' and ')} for Electron ${electronVersion} in native/electron.`);
    return 0;
  } catch (err) {
    console.warn(`skein: Electron build of native modules failed: ${String(err.message).split('\n')[0]}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  process.exit(await buildNativeForElectron());
}
