import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { builtCli, repoRoot, startSkein } from '../helpers/skein-process';
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

  it('takes the data dir from SKEIN_DATA_DIR when --data-dir is absent', () => {
    const dataDir = tempDir();
    createEngine({ dataDir }).close();
    expect(existsSync(join(dataDir, 'skein.db'))).toBe(true);
    const r = skein(['users', 'list'], { SKEIN_DATA_DIR: dataDir });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('app');
    const elsewhere = skein(['users', 'list'], { SKEIN_DATA_DIR: tempDir() });
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.err).toContain('No Skein data');
  });

  it('loads the demo corpus on first start only, or never with --no-demo; skein seed --remove takes it out again', async () => {
    const count = (dir: string) => {
      const engine = createEngine({ dataDir: dir });
      try {
        return (engine.db.prepare('SELECT count(*) AS n FROM posts').get() as { n: number }).n;
      } finally {
        engine.close();
      }
    };
    const demoDir = tempDir();
    const demo = await startSkein(demoDir);
    expect(demo.output()).toContain("Loaded the demo corpus (fictional: 200 users, 20,000 posts) into");
    expect(demo.output()).toContain("remove it with 'skein seed --remove' or Home > Remove the demo data");
    await demo.stop();
    expect(count(demoDir)).toBe(20_000);

    const emptyDir = tempDir();
    const empty = await startSkein(emptyDir, ['--no-demo']);
    expect(empty.output()).not.toContain('Loaded the demo corpus');
    await empty.stop();
    // The next start without the flag does not load it either (it did: a data dir set up without
    // the demo got 20,000 fictional posts at its next plain start).
    const again = await startSkein(emptyDir);
    expect(again.output()).not.toContain('Loaded the demo corpus');
    await again.stop();
    expect(count(emptyDir)).toBe(0);

    // An import beside the demo says how to part them; the removal keeps what was imported.
    const imported = skein(['import', join(repoRoot, 'test', 'fixtures', 'corpus', 'v2-page.jsonl'), '--data-dir', demoDir]);
    expect(imported.code).toBe(0);
    expect(imported.err).toContain("The corpus also holds the demo data (fictional users and posts) beside what you imported: 'skein seed --remove' takes it out.");
    const own = count(demoDir) - 20_000;
    expect(own).toBeGreaterThan(0);
    const removed = skein(['seed', '--remove', '--data-dir', demoDir]);
    expect(removed.code).toBe(0);
    expect(removed.err).toMatch(/^Removed the demo data: 200 users, 20000 posts, 12 articles, 8 spaces\.\nThe corpus now holds \d+ users, \d+ posts, 0 articles, 0 spaces\.\n$/);
    expect(JSON.parse(removed.out)).toEqual({ removed: { users: 200, posts: 20_000, articles: 12, spaces: 8 }, kept: { users: 0, posts: 0, spaces: 0 }, left: [] });
    expect(count(demoDir)).toBe(own);
    const twice = skein(['seed', '--remove', '--data-dir', demoDir]);
    expect([twice.code, twice.err]).toEqual([1, 'skein seed: The corpus holds no demo data: nothing was seeded into it, or it was removed already.\n']);
    expect(skein(['seed', '--remove', '--scale', 'demo', '--data-dir', demoDir]).code).toBe(2);
    // Removed stays removed: a later start does not load it again.
    const restarted = await startSkein(demoDir);
    expect(restarted.output()).not.toContain('Loaded the demo corpus');
    await restarted.stop();
    expect(count(demoDir)).toBe(own);
  });

  it('answers on its URL and stops cleanly on SIGINT', async () => {
    const dataDir = tempDir();
    const server = await startSkein(dataDir, ['--no-demo']);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/no/such/path`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'error', message: 'No endpoint GET /no/such/path.' });
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.output()).toContain('Skein is stopping (SIGINT)');
  });

  it("prints the app's login address with the data dir's token, the same after a restart and from skein app-url", async () => {
    const dataDir = tempDir();
    const first = await startSkein(dataDir, ['--no-demo']);
    const token = readFileSync(join(dataDir, 'app-login-token'), 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dataDir, 'app-login-token')).mode & 0o777).toBe(0o600);
    expect(first.loginUrl).toBe(`${first.url}/?token=${token}`);
    const port = new URL(first.url).port;
    expect(skein(['app-url', '--port', port, '--data-dir', dataDir]).out).toBe(`${first.loginUrl}\n`);
    await first.stop();
    const second = await startSkein(dataDir, ['--no-demo']);
    expect(new URL(second.loginUrl).searchParams.get('token')).toBe(token);
    await second.stop();
  });
});
