import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/cli';
import { builtCli } from '../helpers/skein-process';
import { createKey } from '../../src/main/engine/keys';
import { webhookSettings } from '../../src/main/engine/webhooks';
import { testEngine } from '../helpers/engine';

// `skein webhooks set|clear|show` against the data dir of a running engine (its own connection).



describe('skein webhooks', () => {
  it('sets, shows and clears a user\'s webhook URL and secret', async () => {
    const engine = testEngine();
    const { user } = createKey(engine, 'analyst');
    const dir = engine.dataDir;
    const set = await run('webhooks', 'set', '--user', 'analyst', '--url', 'http://127.0.0.1:9999/hook', '--secret', 'sixteen-chars-at-least', '--data-dir', dir);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('http://127.0.0.1:9999/hook');
    expect(webhookSettings(engine.db, user.id)).toEqual({ url: 'http://127.0.0.1:9999/hook', hasSecret: true, secretKeptIn: 'database' });
    const shown = await run('webhooks', 'show', '--user', 'analyst', '--json', '--data-dir', dir);
    expect(JSON.parse(shown.out)).toMatchObject({ user: 'analyst', url: 'http://127.0.0.1:9999/hook', hasSecret: true, secretKeptIn: 'database', deliveries: [] });
    const cleared = await run('webhooks', 'clear', '--user', 'analyst', '--data-dir', dir);
    expect(cleared.code).toBe(0);
    expect(webhookSettings(engine.db, user.id)).toEqual({ url: null, hasSecret: false, secretKeptIn: null });
  });

  it('--secret - takes the secret from standard input, so it never shows in the process list', () => {
    const engine = testEngine();
    const { user } = createKey(engine, 'analyst');
    const skein = (input: string) =>
      spawnSync(process.execPath, [builtCli, 'webhooks', 'set', '--user', 'analyst', '--url', 'http://127.0.0.1:9999/hook', '--secret', '-', '--data-dir', engine.dataDir], {
        input,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const piped = skein('sixteen-chars-at-least\n');
    expect(piped.status, piped.stderr).toBe(0);
    // No keychain in the test: the database holds it, exactly as piped, without echo's newline.
    expect(engine.db.prepare('SELECT webhook_secret FROM api_users WHERE id = ?').pluck().get(user.id)).toBe('sixteen-chars-at-least');
    const empty = skein('');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/secret/i);
    expect(engine.db.prepare('SELECT webhook_secret FROM api_users WHERE id = ?').pluck().get(user.id)).toBe('sixteen-chars-at-least');
  });

  it('refuses a bad URL, a short secret and an unknown user with a clear message and exit code 2', async () => {
    const engine = testEngine();
    createKey(engine, 'analyst');
    const dir = engine.dataDir;
    for (const [args, words] of [
      [['--url', 'ftp://example.org/x'], 'http'],
      [['--url', 'not a url'], 'absolute URL'],
      [['--url', 'http://u:p@example.org/'], 'password'],
      [['--url', 'http://example.org/', '--secret', 'short'], '16'],
    ] as const) {
      const r = await run('webhooks', 'set', '--user', 'analyst', ...args, '--data-dir', dir);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(words);
    }
    const unknown = await run('webhooks', 'set', '--user', 'nobody', '--url', 'http://example.org/', '--data-dir', dir);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("No api user named 'nobody'");
  });
});
