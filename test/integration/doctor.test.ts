import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';

// `skein doctor` (issue 13, point 16): SQLite's pages, the whole ledger, unfinished files left
// behind and the data dir's permissions, each said; exit 1 while a problem remains. The ledger's
// own cases (a rewritten transfer, a tampered hold): test/unit/ledger-checkpoint.test.ts.

describe('skein doctor', () => {
  it('on a sound data dir says so part by part and exits 0', async () => {
    const dataDir = tempDir();
    createEngine({ dataDir }).close();
    const { code, out } = await runCli('doctor', '--data-dir', dataDir);
    expect(code).toBe(0);
    expect(out).toContain('Permissions: the data dir is private to your account.');
    expect(out).toContain('SQLite: every page of the database reads back (quick_check ok).');
    expect(out).toContain('The ledger is sound');
    expect(out).toContain('Unfinished files: none left behind.');
  });

  it('lists an unfinished file no job will use and exits 1, and makes an open data dir private, saying so', async () => {
    const dataDir = tempDir();
    createEngine({ dataDir }).close();
    const partial = join(dataDir, 'exports', '.partial');
    mkdirSync(partial, { recursive: true });
    writeFileSync(join(partial, 'job999.csv'), 'id_str\r\n1\r\n');
    chmodSync(dataDir, 0o755);
    const { code, out } = await runCli('doctor', '--data-dir', dataDir);
    expect(code).toBe(1);
    expect(out).toMatch(/Unfinished files: 1 in exports\/\.partial that no job will use \(11 bytes\); remove them in the app's Exports:\n- job999\.csv \(11 bytes, no job\)/);
    if (process.platform !== 'win32') {
      expect(out).toMatch(/Permissions: others could read \d+ paths? of the data dir .*; made private \(0700\/0600\)\./);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    }
  });

  it.skipIf(process.platform === 'win32')('walks every file even when the dir is private: a 0644 export is found and made 0600', async () => {
    const dataDir = tempDir();
    createEngine({ dataDir }).close();
    mkdirSync(join(dataDir, 'exports'), { recursive: true, mode: 0o700 });
    const file = join(dataDir, 'exports', 'search-job1.csv');
    writeFileSync(file, 'id_str\r\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const { out } = await runCli('doctor', '--data-dir', dataDir);
    expect(out).toContain(`Permissions: others could read 1 path of the data dir (e.g. ${file}); made private (0700/0600).`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
