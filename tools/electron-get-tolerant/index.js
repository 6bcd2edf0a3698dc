'use strict';
// Electron's postinstall downloads its binary and exits 1 when that fails, which fails the whole
// `npm install` on machines that reach only the npm registry. Its only switch is the environment
// variable ELECTRON_SKIP_BINARY_DOWNLOAD, which no npm config can set. package.json installs this
// wrapper as the top-level @electron/get that Electron requires: the download is tried as before (so a normal desktop
// gets the binary), and only inside Electron's own postinstall is a failure turned into a warning.
// Everyone else (electron-builder, @electron/rebuild) sees upstream's behaviour unchanged.
const upstream = require('@electron/get-upstream');

const insideElectronPostinstall = () =>
  process.env.npm_lifecycle_event === 'postinstall' && process.env.npm_package_name === 'electron';

async function downloadArtifact(options) {
  try {
    return await upstream.downloadArtifact(options);
  } catch (err) {
    if (!insideElectronPostinstall()) throw err;
    const reason = String((err && err.message) || err).split('\n')[0];
    console.warn(`skein: Electron's binary could not be downloaded (${reason}); ` +
      '`npm start` will run Skein in headless mode. Type definitions are installed.');
    process.exit(0);
  }
}

module.exports = { ...upstream, downloadArtifact };
