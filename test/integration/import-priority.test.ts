import { spawn } from 'node:child_process';
import { constants, getPriority } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { builtCli } from '../helpers/skein-process';
import { tempDir } from '../helpers/temp';
import { tweetsFile } from '../helpers/tweets-file';

// `skein import` beside the app: a bulk write runs below the app's CPU priority, so the API answers
// as fast as usual while it runs (background-priority.ts has the numbers). The built CLI as a real
// process, stopped (SIGSTOP) at its first progress line so its priority is read while it imports.

/** Enough records that the import is still running when its first progress line arrives (~1 s of work). */
const RECORDS = 5_000;

/** Starts `skein import`, stops it at its first progress line, reads its priority, then lets it finish. */
async function priorityWhileImporting(args: string[]): Promise<{ priority: number; code: number | null }> {
  const dir = tempDir();
  const child = spawn(process.execPath, [builtCli, 'import', tweetsFile(dir, RECORDS), '--data-dir', join(dir, 'data'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let err = '';
  let read = false;
  const priority = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (read || !err.includes('import: ')) return;
      read = true;
      child.kill('SIGSTOP');
      try {
        resolve(getPriority(child.pid));
      } catch (e) {
        reject(e as Error);
      }
    });
    void exited.then((code) => reject(new Error(`skein import ended (${code}) before its priority was read:\n${err}`)));
  });
  child.kill('SIGCONT');
  return { priority, code: await exited };
}

describe('skein import runs below the app’s CPU priority', () => {
  it('lowers its own priority by default, and keeps it with --priority normal', async () => {
    const own = getPriority();
    const low = await priorityWhileImporting([]);
    expect(low.priority).toBe(Math.max(own, constants.priority.PRIORITY_BELOW_NORMAL));
    expect(low.code).toBe(0);
    const normal = await priorityWhileImporting(['--priority', 'normal']);
    expect(normal.priority).toBe(own);
    expect(normal.code).toBe(0);
  });

  it('refuses an unknown priority as a usage mistake, before reading any file', async () => {
    const cli = await runCli('import', 'no-such-file.jsonl', '--priority', 'high', '--data-dir', tempDir());
    expect(cli.code).toBe(2);
    expect(cli.err).toContain("--priority takes normal (or low, the default), not 'high'.");
  });
});
