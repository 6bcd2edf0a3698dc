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
    const code = await main(argv);
    return { code, out: out.join('\n'), err: err.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}
