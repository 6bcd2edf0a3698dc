// After `npm install`: build the app (so `npx skein` works at once) and, where Electron's binary
// is present, a second copy of the native modules compiled for Electron's ABI (see
// docs/decisions.md, "Native modules under Node and under Electron").
import { build, electronBinary } from './lib.mjs';
import { buildNativeForElectron } from './native-electron.mjs';

const electron = electronBinary();
if (electron.path) {
  const status = await buildNativeForElectron();
  if (status !== 0) {
    console.warn('skein: could not build the native modules for Electron; `npm start` will fall back to headless mode.');
  }
} else {
  console.log(`skein: ${electron.why}; skipping the Electron build of native modules (headless mode works).`);
}
process.exit(build());
