import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/main/cli/index';
import { createKey } from '../../src/main/engine/keys';
import { webhookSettings } from '../../src/main/engine/webhooks';
import { testEngine } from '../helpers/engine';

// `skein webhooks set|clear|show` against the data dir of a running engine (its own connection).

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { code: await main(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('skein webhooks', () => {
  it('sets, shows and clears a user\'s webhook URL and secret', async () => {
    const engine = testEngine();
    const { user } = createKey(engine, 'analyst');
    const dir = engine.dataDir;
    const set = await run('webhooks', 'set', '--user', 'analyst', '--url', 'http://127.0.0.1:9999/hook', '--secret', 'sixteen-chars-at-least', '--data-dir', dir);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('http://127.0.0.1:9999/hook');
    expect(webhookSettings(engine.db, user.id)).toEqual({ url: 'http://127.0.0.1:9999/hook', hasSecret: true });
    const shown = await run('webhooks', 'show', '--user', 'analyst', '--json', '--data-dir', dir);
    expect(JSON.parse(shown.out)).toMatchObject({ user: 'analyst', url: 'http://127.0.0.1:9999/hook', hasSecret: true, deliveries: [] });
    const cleared = await run('webhooks', 'clear', '--user', 'analyst', '--data-dir', dir);
    expect(cleared.code).toBe(0);
    expect(webhookSettings(engine.db, user.id)).toEqual({ url: null, hasSecret: false });
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
