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
// exitWhenFlushed, not process.exit: output piped to another program must arrive whole.
const { main, exitWhenFlushed } = require(cli);
main(process.argv.slice(2)).then(exitWhenFlushed, (err) => {
  console.error(err);
  exitWhenFlushed(1);
});
