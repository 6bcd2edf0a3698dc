import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..', '..');
export const builtCli = join(repoRoot, 'out', 'main', 'cli.js');
/** The `skein` command as npm puts it on the PATH: it runs the built CLI. */
export const skeinBin = join(repoRoot, 'bin', 'skein.js');

export interface SkeinProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT, the base of every API path. */
  url: string;
  /** What the ready line prints: url + `/?token=...`, the address that logs a browser in to the app. */
  loginUrl: string;
  output(): string;
  /** Sends a signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built `skein serve` as a real process (what `npm start` runs in headless mode) and
 * resolves once it prints its URL. Needs `npm run build` first; `npm test` builds before testing.
 */
export async function startSkein(dataDir: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}, entry = builtCli): Promise<SkeinProcess> {
  if (!existsSync(builtCli)) throw new Error(`${builtCli} is missing: run \`npm run build\` first.`);
  const child = spawn(process.execPath, [entry, 'serve', '--port', '0', '--data-dir', dataDir, ...extraArgs], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const loginUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`skein serve did not start within 60 s:\n${out}`)), 60_000);
    const onData = () => {
      // The whole line: the address ends in a 64-digit token that may arrive in two chunks.
      const m = /Skein is running at (http:\/\/\S+)\r?\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`skein serve exited with ${code} before starting:\n${out}`));
    });
  });
  const url = new URL(loginUrl).origin;
  return {
    child,
    url,
    loginUrl,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

/** Imports one twarc2 page (JSON Lines) into a data dir with the built `skein import`, as an analyst would. */
export function importTwarcPage(dataDir: string, page: object): void {
  const file = join(dataDir, 'page.jsonl');
  writeFileSync(file, `${JSON.stringify(page)}\n`);
  const imported = spawnSync(process.execPath, [builtCli, 'import', file, '--data-dir', dataDir], { encoding: 'utf8' });
  if (imported.status !== 0) throw new Error(`skein import exited with ${imported.status}:\n${imported.stderr}`);
}
