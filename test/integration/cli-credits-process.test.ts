import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { createKey } from '../../src/main/engine/keys';
import { builtCli, startSkein } from '../helpers/skein-process';
import { tempDir } from '../helpers/temp';

// The built `skein` as real processes: `skein serve` running, and `skein credits` / `skein users`
// run beside it on the same data dir, as an analyst does while the app is open.

function skein(args: string[]) {
  const r = spawnSync(process.execPath, [builtCli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('skein credits and skein users while skein serve runs', () => {
  it('grants and limits reach the running server at once', async () => {
    const dataDir = tempDir();
    const setup = createEngine({ dataDir });
    const { key } = createKey(setup, 'notebook');
    setup.close();
    const server = await startSkein(dataDir);
    try {
      const account = async () => {
        const r = await fetch(`${server.url}/social/account`, { headers: { authorization: `Bearer ${key}` } });
        return { status: r.status, body: (await r.json()) as { credits: { available: number }; rate_limit: { limit: number } }, policy: r.headers.get('ratelimit-policy') };
      };
      expect((await account()).body.credits.available).toBe(100_000);

      const granted = skein(['credits', 'grant', '--user', 'notebook', '--amount', '1234', '--data-dir', dataDir]);
      expect(granted.err).toBe('');
      expect(granted.code).toBe(0);
      expect(granted.out).toContain('Granted 1234 credits to notebook. Available: 101234');
      expect((await account()).body.credits.available).toBe(101_234);

      expect(skein(['users', 'set-limit', '--user', 'notebook', '--per-minute', '3', '--data-dir', dataDir]).code).toBe(0);
      const third = await account();
      expect(third.policy).toBe('"per-user";q=3;w=60');
      expect(third.body.rate_limit.limit).toBe(3);
      // this window already holds 3 requests (the two above and this one): the next is refused
      expect((await account()).status).toBe(429);

      const ledger = skein(['credits', 'ledger', '--user', 'notebook', '--json', '--data-dir', dataDir]);
      expect(ledger.code).toBe(0);
      expect((JSON.parse(ledger.out) as { available: number; transfers_total: number })).toMatchObject({ available: 101_234, transfers_total: 2 });
      const list = skein(['users', 'list', '--data-dir', dataDir]);
      expect(list.out).toMatch(/notebook\s+2\s+3\s+101234\s+0\s+1/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
