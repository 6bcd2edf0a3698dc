import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { skeinBin, startSkein } from '../helpers/skein-process';
import { runCli } from '../helpers/cli';

// Issue 13, point 13: the data dir holds the corpus, exports and secrets, so another account on the
// machine must not read it: the dir 0700, its files 0600, an existing dir tightened at start.

const mode = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('the data dir is private to its user', () => {
  it('a new data dir is 0700 and its database 0600', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'skein-perm-')), 'data');
    const engine = createEngine({ dataDir });
    engine.close();
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'skein.db'))).toBe(0o600);
  });

  it('skein serve tightens an existing open data dir, says so, and writes its exports private', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skein-perm-open-'));
    createEngine({ dataDir }).close();
    const created = await runCli('keys', 'create', '--name', 'script', '--credits', '1000', '--json', '--data-dir', dataDir);
    const key = (JSON.parse(created.out) as { key: string }).key;
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'skein.db'), 0o644);
    const skein = await startSkein(dataDir);
    try {
      expect(skein.output()).toMatch(/Made the data dir private to your account \(others could read it\): \d+ paths? now 0700\/0600/);
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'skein.db'))).toBe(0o600);
      await expectPrivateExport(skein.url, key, dataDir);
    } finally {
      await skein.stop();
    }
    // A second start finds nothing to tighten and says nothing.
    const again = await startSkein(dataDir);
    await again.stop();
    expect(again.output()).not.toMatch(/Made the data dir private/);
  });

  // bin/skein.js ran the CLI's main() without the umask: its exports were 0644 in a 0755 exports/.
  it('the `skein` command on the PATH writes its exports private too', { timeout: 120_000 }, async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'skein-perm-bin-')), 'data');
    const skein = await startSkein(dataDir, [], {}, skeinBin);
    try {
      const created = await runCli('keys', 'create', '--name', 'script', '--credits', '1000', '--json', '--data-dir', dataDir);
      await expectPrivateExport(skein.url, (JSON.parse(created.out) as { key: string }).key, dataDir);
    } finally {
      await skein.stop();
    }
  });
});

/** Runs a search job on the demo corpus and checks that its file is the user's alone (umask 077). */
async function expectPrivateExport(url: string, key: string, dataDir: string): Promise<void> {
  const job = await fetch(`${url}/social/search/asyncJob`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'lang:en', max_count: 5, output_format: 'csv' }),
  });
  const { job_id } = (await job.json()) as { job_id: number };
  let status: { status: string; result?: { file_name: string } };
  do {
    await new Promise((r) => setTimeout(r, 50));
    status = (await (await fetch(`${url}/jobs/${job_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as typeof status;
  } while (status.status !== 'success' && status.status !== 'error');
  expect(status.status).toBe('success');
  expect(mode(join(dataDir, 'exports', status.result!.file_name))).toBe(0o600);
  expect(mode(join(dataDir, 'exports'))).toBe(0o700);
}
