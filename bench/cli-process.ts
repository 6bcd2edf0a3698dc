// Runs the `skein` CLI from the sources in a process of its own (`node --import tsx
// bench/cli-process.ts import FILE --data-dir DIR`), so a bench can run a command next to a server
// without a build, as an analyst runs `skein import` next to the running app.
import { main } from '../src/main/cli/index';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
