import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { revokeKey } from '../../src/main/engine/keys';
import { getUpstreamConfig } from '../../src/main/engine/upstream';
import { runCli as run } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';
import { upstreamSkein } from '../helpers/upstream-skein';

// `skein upstream set|show|test|remove`, the real CLI in-process against a real data dir, with a
// second real Skein on loopback as the upstream. No OS keychain answers in the test environment,
// so the key comes in SKEIN_UPSTREAM_KEY, as it must wherever no keychain exists.

afterEach(() => vi.unstubAllEnvs());

describe('skein upstream', () => {
  it('sets, shows, tests and removes the upstream; the key is only ever shown masked', async () => {
    const a = await upstreamSkein();
    const b = testEngine();
    const dir = b.dataDir;
    vi.stubEnv('SKEIN_UPSTREAM_KEY', a.key);
    const outputs: string[] = [];
    const cli = async (...args: string[]) => {
      const r = await run('upstream', ...args, '--data-dir', dir);
      outputs.push(r.out, r.err);
      return r;
    };

    const set = await cli('set', '--url', `${a.server.url}/`, '--profile', 'spec', '--mode', 'refresh', '--per-minute', '30', '--budget', '5000');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('No OS keychain');
    expect(set.out).toContain('SKEIN_UPSTREAM_KEY');
    expect(set.out).toContain('$1.00'); // 5,000 items at $0.0002
    expect(getUpstreamConfig(b.db)).toMatchObject({ url: a.server.url, profile: 'spec', mode: 'refresh', perMinute: 30, budgetItems: 5000, keyStatus: 'unknown' });

    const masked = `${a.key.slice(0, 3)}…${a.key.slice(-4)}`;
    const shown = await cli('show', '--json');
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      configured: true, url: a.server.url, profile: 'spec', mode: 'refresh', per_minute: 30, budget_items: 5000, budget_usd: 1, price_per_item_usd: 0.0002,
      key: { present: true, masked, source: 'environment', status: 'unknown' },
    });

    const tested = await cli('test');
    expect(tested.code, tested.err).toBe(0);
    expect(tested.out).toMatch(/^ok: .* balance 10\d{6} credits\.$/);
    expect(JSON.parse((await cli('show', '--json')).out).key.status).toBe('valid');

    revokeKey(a.engine, a.key);
    const refused = await cli('test');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('refused the API key (HTTP 401)');
    const afterRevoke = await cli('show');
    expect(afterRevoke.out).toContain('status invalid');
    expect(afterRevoke.out).toContain(masked);

    const removed = await cli('remove');
    expect(removed.code, removed.err).toBe(0);
    expect(getUpstreamConfig(b.db)).toBeNull();
    expect(JSON.parse((await cli('show', '--json')).out).configured).toBe(false);

    for (const text of outputs) expect(text).not.toContain(a.key);
    // nor anywhere in the data dir's database files (the config row was written with the key at hand)
    for (const file of [b.dbFile, `${b.dbFile}-wal`]) if (existsSync(file)) expect(readFileSync(file).includes(a.key)).toBe(false);
  });

  it('tests a socialdata-profile upstream through the /user/balance path, in dollars', async () => {
    const a = await upstreamSkein();
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', a.key);
    expect((await run('upstream', 'set', '--url', a.server.url, '--profile', 'socialdata', '--data-dir', b.dataDir)).code).toBe(0);
    const tested = await run('upstream', 'test', '--data-dir', b.dataDir);
    expect(tested.code, tested.err).toBe(0);
    expect(tested.out).toMatch(/balance \$20\d\d(\.\d+)?\.$/); // 10,000,000+ credits at 5,000 a dollar
    expect(getUpstreamConfig(b.db)).toMatchObject({ profile: 'socialdata', mode: 'cache-first', perMinute: 120, budgetItems: null, keyStatus: 'valid' });
  });

  it('test says clearly when there is no upstream or no key, with a non-zero exit code', async () => {
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', '');
    const none = await run('upstream', 'test', '--data-dir', b.dataDir);
    expect(none.code).toBe(1);
    expect(none.err).toContain('No upstream is set');
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    expect((await run('upstream', 'set', '--url', 'http://127.0.0.1:9', '--profile', 'spec', '--data-dir', b.dataDir)).code).toBe(0);
    vi.stubEnv('SKEIN_UPSTREAM_KEY', '');
    const noKey = await run('upstream', 'test', '--data-dir', b.dataDir);
    expect(noKey.code).toBe(1);
    expect(noKey.err).toContain('No upstream API key');
  });

  it('refuses bad input with a clear message and exit code 2, storing nothing', async () => {
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    for (const [args, words] of [
      [['--profile', 'spec'], '--url URL is required'],
      [['--url', 'http://127.0.0.1:1'], '--profile'],
      [['--url', 'not a url', '--profile', 'spec'], 'absolute URL'],
      [['--url', 'ftp://example.org', '--profile', 'spec'], 'http'],
      [['--url', 'https://me:secret@example.org', '--profile', 'spec'], 'password'],
      [['--url', 'https://example.org/?key=x', '--profile', 'spec'], 'query'],
      [['--url', 'https://example.org', '--profile', 'twitter'], "unknown --profile 'twitter'"],
      [['--url', 'https://example.org', '--profile', 'spec', '--mode', 'fast'], "unknown --mode 'fast'"],
      [['--url', 'https://example.org', '--profile', 'spec', '--per-minute', '0'], '--per-minute must be between 1'],
      [['--url', 'https://example.org', '--profile', 'spec', '--per-minute=-5'], '--per-minute takes a whole number'],
      [['--url', 'https://example.org', '--profile', 'spec', '--budget=-1'], '--budget takes a whole number'],
      [['--url', 'https://example.org', '--profile', 'spec', '--budget', '1.5'], '--budget takes a whole number'],
      [['--url', 'https://example.org', '--profile', 'spec', '--colour', 'red'], 'colour'],
    ] as const) {
      const r = await run('upstream', 'set', ...args, '--data-dir', b.dataDir);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toContain(words);
      expect(getUpstreamConfig(b.db)).toBeNull();
    }
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'has a space');
    const badKey = await run('upstream', 'set', '--url', 'https://example.org', '--profile', 'spec', '--data-dir', b.dataDir);
    expect(badKey.code).toBe(2);
    expect(badKey.err).not.toContain('has a space');
    expect(getUpstreamConfig(b.db)).toBeNull();
    expect((await run('upstream', 'frobnicate', '--data-dir', b.dataDir)).code).toBe(2);
  });

  it('sets the upstream before the app ever ran, making the data dir as keys create does', async () => {
    const dir = join(tempDir(), 'not-yet');
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    const set = await run('upstream', 'set', '--url', 'https://example.org', '--profile', 'socialdata', '--data-dir', dir);
    expect(set.code, set.err).toBe(0);
    const shown = await run('upstream', 'show', '--json', '--data-dir', dir);
    expect(JSON.parse(shown.out)).toMatchObject({ configured: true, url: 'https://example.org', profile: 'socialdata' });
  });
});
