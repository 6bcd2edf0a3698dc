import { afterEach, vi } from 'vitest';
import { main } from '../../src/main/cli/index';

afterEach(() => vi.restoreAllMocks());

/**
 * Runs the `skein` command in-process (the real CLI code against a real data dir) and captures
 * what it prints: console.log to `out`; console.error and direct stderr writes (progress) to `err`.
 */
export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(`${a.join(' ')}\n`));
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (err.push(String(chunk)), true));
  try {
    // `skein import` lowers its process's CPU priority (cli/background-priority.ts), which in-process
    // would slow the rest of this test file's fork; test/integration/import-priority.test.ts checks
    // the default on a real process.
    const args = argv[0] === 'import' && !argv.includes('--priority') ? [...argv, '--priority', 'normal'] : argv;
    const code = await main(args);
    return { code, out: out.join('\n'), err: err.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}
