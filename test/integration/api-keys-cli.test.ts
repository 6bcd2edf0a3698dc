import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/cli';
import { balanceOf, findTransfer } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { tempDir } from '../helpers/temp';
import { DETAIL_ID, writeApiCorpus } from '../fixtures/api-corpus';

// `skein keys` in-process against a data dir that a running server (another connection, as the
// app beside the CLI) serves at the same time.



describe('skein keys', () => {
  it('create --json prints {user, key} once; the key works at once against the running server; credits granted', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const r = await run('keys', 'create', '--name', 'notebook', '--credits', '500', '--json', '--data-dir', engine.dataDir);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.out) as { user: { id: number; name: string; created: boolean }; key: string; key_id: number; credits_available: number };
    expect(created.user).toMatchObject({ name: 'notebook', created: true });
    expect(created.key).toMatch(/^sk_[0-9a-f]{48}$/);
    expect(findTransfer(engine.db, `grant:keys-create:${created.key_id}`)).toMatchObject({ amount: 500 });
    expect(created.credits_available).toBe(balanceOf(engine.db, created.user.id).available);
    expect(created.credits_available).toBeGreaterThanOrEqual(500);
    const res = await server.request(`/social/tweets/${DETAIL_ID}`, { key: created.key });
    expect(res.status).toBe(200);

    const again = await run('keys', 'create', '--name', 'notebook', '--json', '--data-dir', engine.dataDir);
    const second = JSON.parse(again.out) as { user: { id: number; created: boolean }; key: string };
    expect(second.user).toMatchObject({ id: created.user.id, created: false });
    expect(second.key).not.toBe(created.key);
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
