import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { createKey } from '../../src/main/engine/keys';
import { grant } from '../../src/main/engine/ledger';
import { repoRoot } from '../helpers/skein-process';
import { tempDir } from '../helpers/temp';

// `skein ... --json` piped into another program (jq, a script) must arrive whole. Node writes to a
// pipe asynchronously, and process.exit() used to end the process with the rest still queued: the
// reader got the first 65,536 bytes and exit code 0.
const skeinBin = join(repoRoot, 'bin', 'skein.js');

function piped(args: string[]): Promise<{ code: number | null; out: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [skeinBin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    // A slow reader, as jq on a big document is: the writer's queue fills while it waits.
    child.stdout.on('data', (c: Buffer) => {
      chunks.push(c);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 1);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(chunks) }));
  });
}

describe('skein output through a pipe', () => {
  it('delivers more than 1 MiB of --json output whole before the process exits', async () => {
    const dataDir = tempDir();
    const engine = createEngine({ dataDir });
    const { user } = createKey(engine, 'busy', { credits: 0 });
    engine.db.transaction(() => {
      for (let i = 0; i < 8_000; i++) grant(engine.db, { transferId: `test:many:${i}`, userId: user.id, amount: 1, nowMs: 1_700_000_000_000 + i, memo: `grant number ${i} for the pipe test` });
    })();
    engine.close();
    const r = await piped(['credits', 'ledger', '--user', 'busy', '--json', '--limit', '100000', '--data-dir', dataDir]);
    expect(r.code).toBe(0);
    expect(r.out.length).toBeGreaterThan(1024 * 1024);
    const ledger = JSON.parse(r.out.toString('utf8')) as { available: number; transfers: unknown[] };
    expect(ledger.available).toBe(8_000);
    expect(ledger.transfers).toHaveLength(8_000);
  });
});
