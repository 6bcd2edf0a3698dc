import { parseArgs, type ParseArgsConfig } from 'node:util';
import { defaultDataDir } from '../engine/paths';

/** A usage mistake: printed with the command's usage, exit code 2, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Every subcommand takes --data-dir (or SKEIN_DATA_DIR); the rest is per command. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, allowPositionals = false) {
  try {
    const parsed = parseArgs({
      args: argv,
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' }, ...options },
      allowPositionals,
      strict: true,
    });
    const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
    return {
      values,
      positionals: parsed.positionals,
      dataDir: (values['data-dir'] as string | undefined) ?? defaultDataDir(),
      help: values.help === true,
    };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A non-negative integer option, refused with a clear message otherwise. */
export function intOption(value: unknown, name: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (value === undefined) return undefined;
  const s = String(value);
  if (!/^\d+$/.test(s)) throw new UsageError(`--${name} takes a whole number, not '${s}'.`);
  const n = Number(s);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}.`);
  return n;
}

/**
 * Runs `skein <command> <sub> ...` for commands made of subcommands (keys, users, credits,
 * webhooks): no subcommand prints usage (exit 2), --help prints it (exit 0), an unknown one is a
 * UsageError naming the choices.
 */
export function runSubcommand(command: Command, argv: string[], subcommands: Record<string, (argv: string[]) => Promise<number> | number>): Promise<number> | number {
  const [sub, ...rest] = argv;
  const handler = sub === undefined ? undefined : subcommands[sub];
  if (handler) return handler(rest);
  if (sub === undefined || sub === '--help' || sub === '-h') {
    console.log(`${command.summary}\n\nUsage: ${command.usage}`);
    return sub === undefined ? 2 : 0;
  }
  const names = Object.keys(subcommands);
  const choices = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
  throw new UsageError(`unknown subcommand '${sub}' (use ${choices}).`);
}

/** Prints a command's summary and usage for its subcommands' --help. */
export function printUsage(command: Command): number {
  console.log(`${command.summary}\n\nUsage: ${command.usage}`);
  return 0;
}
