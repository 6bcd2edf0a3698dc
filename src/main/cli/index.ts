import { type Command, UsageError } from './command';
import { serveCommand } from './serve';
import { appUrlCommand } from './app-url';
import { webhooksCommand } from './webhooks';
import { upstreamCommand } from './upstream';
import { usersCommand } from './users';
import { creditsCommand } from './credits';
import { keysCommand } from './keys';
import { seedCommand } from './seed';
import { importCommand } from './import';
import { doctorCommand } from './doctor';
import { backupCommand } from './backup';
import { restoreCommand } from './restore';
import { exportsCommand } from './exports';
import { MigrationError } from '../engine/store/migrate';
import { privateUmask } from '../engine/store/private-dir';

// One entry per subcommand; `skein --help` lists them in this order.
const commands: Command[] = [serveCommand, appUrlCommand, keysCommand, usersCommand, creditsCommand, seedCommand, importCommand, exportsCommand, webhooksCommand, upstreamCommand, doctorCommand, backupCommand, restoreCommand];

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'skein: the Social Data Retrieval Service on your own machine.',
    '',
    'Usage: skein <command> [options]     (every command takes --data-dir DIR or SKEIN_DATA_DIR)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'skein <command> --help' for a command's options.",
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`skein: unknown command '${name}'.\n\n${help()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`skein ${command.name}: ${err.message}\nUsage: ${command.usage}`);
      return 2;
    }
    if (err instanceof MigrationError) {
      console.error(`skein: cannot open the data dir: ${err.message}`);
      return 1;
    }
    console.error(`skein ${command.name}: ${(err as Error).message ?? err}`);
    return 1;
  }
}

/**
 * Ends the process with `code` once stdout and stderr have handed everything to the OS. Writes to
 * a pipe are asynchronous in Node, and process.exit() drops what is still queued: `skein ... --json
 * | jq` got the first 65,536 bytes of a 2.4 MB ledger, with exit code 0. A write's callback runs
 * after every earlier write to that stream, so an empty write on each is the signal.
 */
export function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  let open = 2;
  const flushed = () => {
    if (--open === 0) process.exit(code);
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}

/**
 * A whole run of the `skein` command, as a process: what skein writes (the database, exports,
 * imports) is the user's alone (store/private-dir.ts), then the command, then the exit once the
 * output is flushed. Both entry points run it: out/main/cli.js and bin/skein.js (the `skein` on
 * the PATH), which ran main() alone and so wrote its exports 0644 in a 0755 exports/.
 */
export function runAsProcess(argv: string[]): void {
  privateUmask();
  main(argv).then(exitWhenFlushed, (err: unknown) => {
    console.error(err);
    exitWhenFlushed(1);
  });
}

// Run when this file is the entry point (out/main/cli.js), not when a test imports it.
if (typeof require !== "undefined" && require.main === module) runAsProcess(process.argv.slice(2));
