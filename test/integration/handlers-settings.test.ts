import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers, type AppHandlers } from '../../src/main/engine/handlers';
import { dispatch } from '../../src/main/engine/handlers/dispatch';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { charge, chargeBatch, holdForJob, postFromHold, voidHold } from '../../src/main/engine/ledger';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';

// The Settings screen's key form and ledger through the handler layer (the contract the renderer
// calls over IPC or HTTP), against a real engine.

const opened: AppHandlers[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

function setup() {
  const engine = testEngine();
  const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null });
  opened.push(app);
  const balanceOfUser = async (id: number) => (await app.handlers['users.list']()).find((u) => u.id === id)!.balance!.available;
  return { engine, app, h: app.handlers, balanceOfUser };
}

describe('handlers: the key form\'s starting credits', () => {
  it('gives a new user exactly the starting credits (1000 is 1000), shown as one opening line in its ledger', async () => {
    const { h, balanceOfUser } = setup();
    const created = await h['keys.create']({ user: 'analyst', credits: 1000 });
    expect(await balanceOfUser(created.user_id)).toBe(1000);
    const ledger = await h['credits.ledger']({ user_id: created.user_id });
    expect(ledger.balance).toEqual({ posted: 1000, pending: 0, available: 1000 });
    expect(ledger.entries).toEqual([
      expect.objectContaining({ id: `grant:opening:${created.user_id}`, kind: 'grant', amount: 1000, held: 0, available_after: 1000, memo: 'opening balance' }),
    ]);
  });

  it('accepts 0 (nothing to spend, an empty ledger) and applies the default 100,000 when the field is empty', async () => {
    const { h, balanceOfUser } = setup();
    const zero = await h['keys.create']({ user: 'zero', credits: 0 });
    expect(await balanceOfUser(zero.user_id)).toBe(0);
    expect((await h['credits.ledger']({ user_id: zero.user_id })).entries).toEqual([]);
    const zeroText = await h['keys.create']({ user: 'zero-text', credits: '0' as unknown as number });
    expect(await balanceOfUser(zeroText.user_id)).toBe(0);
    const plain = await h['keys.create']({ user: 'plain' });
    expect(await balanceOfUser(plain.user_id)).toBe(100_000);
  });

  it('refuses starting credits for an existing user with a clear invalid error, adding no key; without them it adds a key', async () => {
    const { h, app, balanceOfUser } = setup();
    const first = await h['keys.create']({ user: 'analyst', credits: 1000 });
    const refused = await dispatch(app.handlers, 'keys.create', { user: 'analyst', credits: 1000 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining("user 'analyst' exists already") } });
    expect((await h['keys.list']()).filter((k) => k.user_id === first.user_id)).toHaveLength(1);
    const second = await h['keys.create']({ user: 'analyst' });
    expect(second.user_id).toBe(first.user_id);
    expect((await h['keys.list']()).filter((k) => k.user_id === first.user_id)).toHaveLength(2);
    expect(await balanceOfUser(first.user_id)).toBe(1000);
    for (const credits of [-1, 1.5, 'lots', 1_000_000_001]) {
      expect(await dispatch(app.handlers, 'keys.create', { user: 'someone', credits }), String(credits)).toMatchObject({ ok: false, error: { code: 'invalid' } });
    }
  });
});

describe('handlers: the ledger view\'s running balance', () => {
  it('gives the available balance after each line, equal to what skein credits ledger shows', async () => {
    const { engine, h } = setup();
    const { user_id: u } = await h['keys.create']({ user: 'analyst', credits: 100 });
    await h['credits.grant']({ user_id: u, amount: 50 });
    charge(engine.db, { transferId: 'c1', userId: u, amount: 30, nowMs: 1, memo: 'GET /social/tweets/1' });
    holdForJob(engine.db, { transferId: 'job:7:hold', userId: u, jobId: 7, amount: 20, nowMs: 2 });
    postFromHold(engine.db, { holdId: 'job:7:hold', transferId: 'job:7:rows:0', amount: 10, nowMs: 3 });
    voidHold(engine.db, { holdId: 'job:7:hold', transferId: 'job:7:void', nowMs: 4 });

    const ledger = await h['credits.ledger']({ user_id: u });
    // newest first: release +10, post 0 (already held), hold -20, charge -30, grant +50, opening +100
    expect(ledger.entries.map((e) => [e.kind, e.available_after])).toEqual([
      ['hold released', 110],
      ['hold spent', 100],
      ['hold', 100],
      ['charge', 120],
      ['grant', 150],
      ['grant', 100],
    ]);
    expect(ledger.entries[0]!.available_after).toBe(ledger.balance.available);

    const cli = await runCli('credits', 'ledger', '--user', 'analyst', '--json', '--data-dir', engine.dataDir);
    const fromCli = (JSON.parse(cli.out) as { transfers: { id: string; available_after: number }[] }).transfers;
    expect(ledger.entries.map((e) => [e.id, e.available_after]).reverse()).toEqual(fromCli.map((t) => [t.id, t.available_after]));
  });

  it('counts the balance right in the newest 1,000 lines of a longer history, among other users\' transfers', async () => {
    const { engine, h } = setup();
    const { user_id: u } = await h['keys.create']({ user: 'busy', credits: 5000 });
    const { user_id: other } = await h['keys.create']({ user: 'other', credits: 5000 });
    // 1,200 charges of 1, each followed by four of another user's
    chargeBatch(engine.db, Array.from({ length: 1200 }, (_, i) => [
      { transferId: `mine:${i}`, userId: u, amount: 1, nowMs: i },
      ...Array.from({ length: 4 }, (__, j) => ({ transferId: `theirs:${i}:${j}`, userId: other, amount: 1, nowMs: i })),
    ]).flat());
    const { entries, balance } = await h['credits.ledger']({ user_id: u });
    expect(balance.available).toBe(3800);
    expect(entries).toHaveLength(1000);
    expect(entries[0]).toMatchObject({ id: 'mine:1199', available_after: 3800 });
    expect(entries[999]).toMatchObject({ id: 'mine:200', available_after: 5000 - 201 });
  });
});
