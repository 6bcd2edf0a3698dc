import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/cli';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { tempDir } from '../helpers/temp';

// The CLI runs against the data dir of a running app: its own SQLite connection next to the
// server's, as `skein credits ...` does next to the desktop app.



async function setup() {
  const engine = testEngine();
  const server = await startServer(engine);
  const alice = createKey(engine, 'alice');
  return { engine, server, dir: engine.dataDir, alice };
}

describe('skein credits / skein users beside a running app', () => {
  it('grant adds credits that the running API sees at once; --id makes a retry grant once', async () => {
    const { engine, server, dir, alice } = await setup();
    const r = await run('credits', 'grant', '--user', 'alice', '--amount', '250', '--data-dir', dir);
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toBe('Granted 250 credits to alice. Available: 100250 (held for jobs: 0).');
    const account = (await server.request('/social/account', { key: alice.key })).json() as { credits: { available: number } };
    expect(account.credits.available).toBe(100_250);
    expect((await run('credits', 'grant', '--user', 'alice', '--amount', '5', '--id', 'invoice-7', '--data-dir', dir)).code).toBe(0);
    const again = await run('credits', 'grant', '--user', 'alice', '--amount', '5', '--id', 'invoice-7', '--data-dir', dir);
    expect(again.out).toBe("Grant 'invoice-7' was already made; nothing changed. Available: 100255.");
    const clash = await run('credits', 'grant', '--user', 'alice', '--amount', '6', '--id', 'invoice-7', '--data-dir', dir);
    expect(clash.code).toBe(2);
    expect(clash.err).toContain('--id invoice-7 was already used for a different grant.');
    expect(balanceOf(engine.db, alice.user.id).available).toBe(100_255);
  });

  it.each([
    [['credits', 'grant', '--user', 'alice', '--amount', '0'], '--amount must be between 1 and 1000000000.'],
    [['credits', 'grant', '--user', 'alice', '--amount=-5'], "--amount takes a whole number, not '-5'."],
    [['credits', 'grant', '--user', 'alice', '--amount', '1.5'], "--amount takes a whole number, not '1.5'."],
    [['credits', 'grant', '--user', 'alice'], '--amount N is required.'],
    [['credits', 'grant', '--user', 'nobody', '--amount', '5'], "No api user named 'nobody'. Users: app, alice."],
    [['credits', 'ledger'], '--user NAME is required.'],
    [['users', 'set-limit', '--user', 'alice', '--per-minute', '0'], '--per-minute must be between 1 and 100000.'],
    [['users', 'set-limit', '--user', 'alice'], '--per-minute N is required.'],
    [['users', 'frobnicate'], "unknown subcommand 'frobnicate'"],
  ])('refuses %j with a clear message and exit code 2, changing nothing', async (argv, message) => {
    const { engine, dir, alice } = await setup();
    const r = await run(...argv, '--data-dir', dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
    expect(balanceOf(engine.db, alice.user.id).available).toBe(100_000);
  });

  it('refuses a data dir without Skein data', async () => {
    const r = await run('users', 'list', '--data-dir', tempDir());
    expect(r.code).toBe(2);
    expect(r.err).toContain('No Skein data in');
  });

  it('set-limit applies to the running API on its next request', async () => {
    const { server, dir, alice } = await setup();
    const r = await run('users', 'set-limit', '--user', 'alice', '--per-minute', '2', '--data-dir', dir);
    expect(r.out).toBe('alice: 2 requests per minute (was 120). A running app applies it to the next request.');
    expect((await server.request('/social/account', { key: alice.key })).status).toBe(200);
    expect((await server.request('/social/account', { key: alice.key })).status).toBe(200);
    const third = await server.request('/social/account', { key: alice.key });
    expect(third.status).toBe(429);
    expect(third.headers.get('ratelimit-policy')).toBe('"per-user";q=2;w=60');
  });

  it('users list shows limits, credits and keys, as a table and as JSON', async () => {
    const { dir } = await setup();
    await run('users', 'set-limit', '--user', 'alice', '--per-minute', '600', '--data-dir', dir);
    const table = await run('users', 'list', '--data-dir', dir);
    expect(table.out.split('\n')).toEqual([
      'NAME            ID  PER MINUTE  AVAILABLE  HELD  KEYS',
      'app (built-in)   1         120     100000     0     0',
      'alice            2         600     100000     0     1',
    ]);
    const json = JSON.parse((await run('users', 'list', '--json', '--data-dir', dir)).out) as unknown[];
    expect(json[1]).toEqual({ id: 2, name: 'alice', builtin: false, per_minute_limit: 600, active_keys: 1, credits_available: 100_000, credits_held: 0 });
  });

  it('ledger lists every transfer with the available balance after it', async () => {
    const { dir, server, alice } = await setup();
    await run('credits', 'grant', '--user', 'alice', '--amount', '10', '--id', 'x', '--memo', 'top-up', '--data-dir', dir);
    expect((await server.request('/social/tweets/1', { key: alice.key })).status).toBe(404); // free
    await server.request('/social/account', { key: alice.key }); // free
    const r = await run('credits', 'ledger', '--user', 'alice', '--json', '--data-dir', dir);
    const body = JSON.parse(r.out) as { available: number; transfers_total: number; transfers: { id: string; kind: string; available_change: number; available_after: number; memo: string }[] };
    expect(body.available).toBe(100_010);
    expect(body.transfers_total).toBe(2);
    expect(body.transfers.map((t) => [t.id, t.kind, t.available_change, t.available_after, t.memo])).toEqual([
      ['grant:opening:2', 'posted', 100_000, 100_000, 'opening balance'],
      ['grant:cli:x', 'posted', 10, 100_010, 'top-up'],
    ]);
    const text = await run('credits', 'ledger', '--user', 'alice', '--limit', '1', '--data-dir', dir);
    expect(text.out.split('\n')[0]).toBe('alice: 100010 credits available, 0 held for running jobs. 2 transfers, the last 1 shown (--limit N).');
    expect(text.out).toContain('grant:cli:x');
    expect(text.out).not.toContain('grant:opening:2');
  });
});
