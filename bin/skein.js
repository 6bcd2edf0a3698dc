#!/usr/bin/env node
'use strict';
// The `skein` command. It runs the built CLI (out/main/cli.js), which `npm install` builds in its
// postinstall step; a checkout without a build gets told how to make one.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  console.error('skein: the app is not built yet. Run `npm run build` (npm install does it for you).');
  process.exit(1);
}
// The same run as `node out/main/cli.js`: private files (umask 077), output flushed before the exit.
require(cli).runAsProcess(process.argv.slice(2));
