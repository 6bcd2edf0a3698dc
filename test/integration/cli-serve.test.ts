import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { builtCli, startSkein } from '../helpers/skein-process';
import { tempDir } from '../helpers/temp';

function skein(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [builtCli, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('the skein command', () => {
  it('lists its subcommands with --help', () => {
    const r = skein(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('serve');
    expect(r.out).toMatch(/--data-dir/);
  });

  it('refuses an unknown command with exit code 2', () => {
    const r = skein(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command 'frobnicate'");
  });

  it('refuses a bad port and a non-loopback host without --allow-remote, with usage', () => {
    const badPort = skein(['serve', '--port', 'eighty', '--data-dir', tempDir()]);
    expect(badPort.code).toBe(2);
    expect(badPort.err).toContain('--port takes a whole number');
    const remote = skein(['serve', '--host', '0.0.0.0', '--data-dir', tempDir()]);
    expect(remote.code).toBe(2);
    expect(remote.err).toContain('--allow-remote');
  });

  it('stops with a clear message when the data dir was written by a newer Skein', () => {
    const dataDir = tempDir();
    createEngine({ dataDir }).close();
    const engine = createEngine({ dataDir });
    engine.db.prepare("INSERT INTO schema_migrations (id, name, applied_at_ms) VALUES (999, '999_from_the_future', 0)").run();
    engine.close();
    const r = skein(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('999_from_the_future');
    expect(r.err).toContain('newer Skein');
  });

  it('takes the data dir from SKEIN_DATA_DIR and stops cleanly on SIGINT', async () => {
    const dataDir = tempDir();
    const server = await startSkein(dataDir);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/no/such/path`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'error', message: 'No endpoint GET /no/such/path.' });
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.output()).toContain('Skein is stopping (SIGINT)');
  });
});
