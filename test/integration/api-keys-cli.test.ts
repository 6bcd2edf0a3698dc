import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/cli';
import { listKeys } from '../../src/main/engine/keys';
import { balanceOf, checkInvariants, transfersOf } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { tempDir } from '../helpers/temp';
import { DETAIL_ID, writeApiCorpus } from '../fixtures/api-corpus';

// `skein keys` in-process against a data dir that a running server (another connection, as the
// app beside the CLI) serves at the same time.

interface Created {
  user: { id: number; name: string; created: boolean };
  key: string;
  key_id: number;
  prefix: string;
  credits_granted: number;
  credits_available: number;
}

describe('skein keys', () => {
  it('create --json prints {user, key} once; the key works at once against the running server; --credits N is the opening balance', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const r = await run('keys', 'create', '--name', 'notebook', '--credits', '500', '--json', '--data-dir', engine.dataDir);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.out) as Created;
    expect(created.user).toMatchObject({ name: 'notebook', created: true });
    expect(created.key).toMatch(/^sk_[0-9a-f]{48}$/);
    expect(created).toMatchObject({ credits_granted: 500, credits_available: 500 });
    expect(balanceOf(engine.db, created.user.id).available).toBe(500);
    // one ledger transfer, the opening grant, made once per user
    expect(transfersOf(engine.db, created.user.id).map((t) => [t.id, t.amount, t.memo])).toEqual([[`grant:opening:${created.user.id}`, 500, 'opening balance']]);
    const res = await server.request(`/social/tweets/${DETAIL_ID}`, { key: created.key });
    expect(res.status).toBe(200);

    const again = await run('keys', 'create', '--name', 'notebook', '--json', '--data-dir', engine.dataDir);
    const second = JSON.parse(again.out) as Created;
    expect(second.user).toMatchObject({ id: created.user.id, created: false });
    expect(second.key).not.toBe(created.key);
    // a key for an existing user leaves its balance as it is
    expect(second).toMatchObject({ credits_granted: 0, credits_available: 499 });
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('a user created with --credits 3 makes exactly three 1-credit requests; the 4th is 402', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const r = await run('keys', 'create', '--name', 'budget', '--credits', '3', '--json', '--data-dir', engine.dataDir);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.out) as Created;
    expect(created.credits_available).toBe(3);
    for (let i = 1; i <= 3; i++) expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key: created.key })).status, `request ${i}`).toBe(200);
    const fourth = await server.request(`/social/tweets/${DETAIL_ID}`, { key: created.key });
    expect(fourth.status).toBe(402);
    expect(fourth.json()).toMatchObject({ status: 'error', message: expect.stringMatching(/^Not enough credits: this request can cost up to 1 credit and 0 are available\./) });
    const account = (await server.request('/social/account', { key: created.key })).json() as { credits: Record<string, number> };
    expect(account.credits).toMatchObject({ available: 0, granted_total: 3, spent_total: 3 });
  });

  it('--credits 0 creates a user with nothing to spend and no opening transfer; without --credits the default 100,000 applies', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const zero = await run('keys', 'create', '--name', 'empty', '--credits', '0', '--json', '--data-dir', engine.dataDir);
    expect(zero.code).toBe(0);
    const empty = JSON.parse(zero.out) as Created;
    expect(empty).toMatchObject({ user: { created: true }, credits_granted: 0, credits_available: 0 });
    expect(transfersOf(engine.db, empty.user.id)).toEqual([]);
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key: empty.key })).status).toBe(402);
    expect((await run('credits', 'grant', '--user', 'empty', '--amount', '1', '--data-dir', engine.dataDir)).code).toBe(0);
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key: empty.key })).status).toBe(200);

    const plain = await run('keys', 'create', '--name', 'plain', '--data-dir', engine.dataDir);
    expect(plain.code).toBe(0);
    expect(plain.out.split('\n')[0]).toBe('Created user plain with 100000 credits (the default opening balance).');
    const json = JSON.parse((await run('keys', 'create', '--name', 'plain2', '--json', '--data-dir', engine.dataDir)).out) as Created;
    expect(json).toMatchObject({ credits_granted: 100_000, credits_available: 100_000 });
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('refuses --credits for a user that exists, changing nothing: its balance is not a starting balance any more', async () => {
    const engine = testEngine();
    const first = JSON.parse((await run('keys', 'create', '--name', 'notebook', '--credits', '500', '--json', '--data-dir', engine.dataDir)).out) as Created;
    const keysBefore = listKeys(engine.db).find((u) => u.name === 'notebook')!.keys.length;
    const r = await run('keys', 'create', '--name', 'NoteBook', '--credits', '500', '--data-dir', engine.dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("user 'notebook' exists already, and starting credits are only for a new user");
    expect(r.err).toContain("'skein credits grant'");
    expect(r.out).toBe('');
    expect(listKeys(engine.db).find((u) => u.name === 'notebook')!.keys.length).toBe(keysBefore);
    expect(balanceOf(engine.db, first.user.id).available).toBe(500);
  });

  it('revoke by prefix takes effect on the running server; list shows prefixes, never keys', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const created = JSON.parse((await run('keys', 'create', '--name', 'lab', '--credits', '10', '--json', '--data-dir', engine.dataDir)).out) as { key: string; prefix: string };
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key: created.key })).status).toBe(200);
    const revoked = await run('keys', 'revoke', created.prefix, '--data-dir', engine.dataDir);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toMatch(/Revoked key/);
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key: created.key })).status).toBe(401);
    const twice = await run('keys', 'revoke', created.key, '--data-dir', engine.dataDir);
    expect(twice.out).toMatch(/already revoked/);

    const listed = await run('keys', 'list', '--data-dir', engine.dataDir);
    expect(listed.out).toContain(`${created.prefix}...`);
    expect(listed.out).toContain('revoked');
    expect(listed.out).toContain('app (built-in)');
    expect(listed.out).not.toContain(created.key);
    const json = JSON.parse((await run('keys', 'list', '--json', '--data-dir', engine.dataDir)).out) as { user: string; keys: { prefix: string; revoked_at: string | null }[] }[];
    expect(json.find((u) => u.user === 'lab')!.keys[0]).toMatchObject({ prefix: created.prefix });
  });

  it('usage mistakes exit 2 with a clear message and change nothing', async () => {
    const dataDir = tempDir();
    const cases: [string[], RegExp][] = [
      [['keys', 'create'], /--name NAME is required/],
      [['keys', 'create', '--name', ''], /letters, digits/],
      [['keys', 'create', '--name', 'x', '--credits', '-5'], /--credits/],
      [['keys', 'create', '--name', 'x', '--credits', 'lots'], /whole number/],
      [['keys', 'create', '--name', 'x', '--credits', '1000000001'], /--credits must be between 0 and 1000000000/],
      [['keys', 'revoke'], /give one key/],
      [['keys', 'revoke', 'sk_nothing'], /prefix/],
      [['keys', 'frobnicate'], /unknown subcommand/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(...argv, '--data-dir', dataDir);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
    const missing = await run('keys', 'revoke', 'sk_00000000', '--data-dir', dataDir);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/No API key matches/);
  });
});
