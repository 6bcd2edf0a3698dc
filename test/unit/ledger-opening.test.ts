import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../src/main/engine/errors';
import { createEngine, dbFileOf } from '../../src/main/engine/engine';
import { createKey, listKeys } from '../../src/main/engine/keys';
import { balanceOf, charge, checkInvariants, grant, transfersOf } from '../../src/main/engine/ledger';
import { openDb } from '../../src/main/engine/store/db';
import { migrate } from '../../src/main/engine/store/migrate';
import { migrations } from '../../src/main/engine/store/migrations';
import { testEngine } from '../helpers/engine';
import { errorCode } from '../helpers/error-code';
import { tempDir } from '../helpers/temp';

// A new api user's opening balance is exactly the amount asked for (migration 050 moved the grant
// from a trigger with a fixed 100,000 into createKey), still as one idempotent ledger transfer.

const lines = (engine: { db: Parameters<typeof transfersOf>[0] }, userId: number) =>
  transfersOf(engine.db, userId).map((t) => [t.id, t.kind, t.amount, t.memo]);


describe('opening balance of a new api user', () => {
  it('is exactly the credits asked for, as the one transfer grant:opening:<user id>', () => {
    const engine = testEngine();
    const { user, openingCredits } = createKey(engine, 'budget', { credits: 3 });
    expect(openingCredits).toBe(3);
    expect(balanceOf(engine.db, user.id)).toMatchObject({ posted: 3, pending: 0, available: 3 });
    expect(lines(engine, user.id)).toEqual([[`grant:opening:${user.id}`, 'posted', 3, 'opening balance']]);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('of 0 makes no transfer at all: the account is at zero, a charge is 402, a later grant works', () => {
    const engine = testEngine();
    const { user } = createKey(engine, 'empty', { credits: 0 });
    expect(balanceOf(engine.db, user.id)).toMatchObject({ posted: 0, pending: 0, available: 0 });
    expect(transfersOf(engine.db, user.id)).toEqual([]);
    expect(errorCode(() => charge(engine.db, { transferId: 'c1', userId: user.id, amount: 1, nowMs: 1 }))).toBe('payment_required');
    grant(engine.db, { transferId: 'g1', userId: user.id, amount: 2, nowMs: 2 });
    expect(balanceOf(engine.db, user.id).available).toBe(2);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('is 100,000 when no amount is given; the built-in app user keeps its 100,000', () => {
    const engine = testEngine();
    const { user, openingCredits } = createKey(engine, 'plain');
    expect(openingCredits).toBe(100_000);
    expect(lines(engine, user.id)).toEqual([[`grant:opening:${user.id}`, 'posted', 100_000, 'opening balance']]);
    expect(lines(engine, 1)).toEqual([['grant:opening:1', 'posted', 100_000, 'opening balance']]);
    // a key for the app (the desktop shell makes one) adds no credits
    expect(createKey(engine, 'app').openingCredits).toBe(0);
    expect(balanceOf(engine.db, 1).available).toBe(100_000);
  });

  it('is refused for a user that exists, or when not a whole number from 0 to 10^9; nothing changes', () => {
    const engine = testEngine();
    const { user } = createKey(engine, 'notebook', { credits: 10 });
    const refusal = (() => {
      try {
        createKey(engine, 'NOTEBOOK', { credits: 5 });
      } catch (e) {
        return e as SkeinError;
      }
    })();
    expect(refusal).toBeInstanceOf(SkeinError);
    expect(refusal!.code).toBe('invalid');
    expect(refusal!.message).toMatch(/^Invalid parameter 'credits': user 'notebook' exists already/);
    for (const credits of [-1, 1.5, 1_000_000_001, Number.NaN, '5' as unknown as number]) {
      expect(errorCode(() => createKey(engine, 'other', { credits })), String(credits)).toBe('invalid');
    }
    expect(listKeys(engine.db).map((u) => [u.name, u.keys.length])).toEqual([['app', 0], ['notebook', 1]]);
    expect(balanceOf(engine.db, user.id).available).toBe(10);
  });
});

describe('migration 050 on a data dir from before it', () => {
  it('keeps every balance and transfer as it was; users created after it start with what they ask', () => {
    const dataDir = tempDir();
    const before = openDb(dbFileOf(dataDir));
    migrate(before, migrations.filter((m) => m.id < 50));
    before.prepare(`INSERT INTO api_users (name, created_at_ms) VALUES ('old', 5)`).run(); // the old trigger grants 100,000
    const oldId = Number(before.prepare(`SELECT id FROM api_users WHERE name = 'old'`).pluck().get());
    // a charge as that build wrote it (today's ledger code writes columns of later migrations)
    before.prepare(`INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, created_at_ms)
                    VALUES ('spent', 'posted', (SELECT id FROM ledger_accounts WHERE user_id = ?), 2, 7, 6)`).run(oldId);
    before.prepare('UPDATE ledger_accounts SET debits_posted = debits_posted + 7 WHERE user_id = ?').run(oldId);
    before.prepare('UPDATE ledger_accounts SET credits_posted = credits_posted + 7 WHERE id = 2').run();
    const rawLines = (userId: number) =>
      before
        .prepare(
          `SELECT id, kind, amount, memo FROM ledger_transfers WHERE debit_account_id = (SELECT id FROM ledger_accounts WHERE user_id = @u)
           OR credit_account_id = (SELECT id FROM ledger_accounts WHERE user_id = @u) ORDER BY seq`,
        )
        .raw()
        .all({ u: userId });
    const history = { app: rawLines(1), old: rawLines(oldId) };
    expect(history.old[0]).toEqual([`grant:opening:${oldId}`, 'posted', 100_000, 'opening balance']);
    before.close();

    const engine = createEngine({ dataDir });
    try {
      expect({ app: lines(engine, 1), old: lines(engine, oldId) }).toEqual(history);
      expect(balanceOf(engine.db, oldId).available).toBe(99_993);
      const three = createKey(engine, 'three', { credits: 3 });
      const none = createKey(engine, 'none', { credits: 0 });
      expect(balanceOf(engine.db, three.user.id).available).toBe(3);
      expect(balanceOf(engine.db, none.user.id).available).toBe(0);
      expect(checkInvariants(engine.db)).toEqual([]);
    } finally {
      engine.close();
    }
    // and the next start, which checks the invariants, is clean
    createEngine({ dataDir }).close();
  });
});
