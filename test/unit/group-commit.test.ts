import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/main/engine/clock';
import { SeededIds } from '../../src/main/engine/ids';
import { balanceOf, charge, checkInvariants, grant, ledgerWrites, transfersOf } from '../../src/main/engine/ledger';
import { Metering } from '../../src/main/engine/metering';
import { openDb } from '../../src/main/engine/store/db';
import { ledgerDb } from '../helpers/ledger-db';
import { WRITE_LOCK_BUSY_MESSAGE } from '../../src/main/engine/store/when-write-free';

// Grouped request charges (metering/group-commit.ts) on a real SQLite file: what a group commits,
// that one refusal leaves the others alone, and that a reservation holds until its group commits.

function setup(credits: number) {
  const db = ledgerDb();
  const user = db.addUser('grouped');
  const opening = balanceOf(db, user).available;
  charge(db, { transferId: 'drain', userId: user, amount: opening - credits, nowMs: 0 });
  const metering = new Metering(db, new ManualClock(Date.UTC(2026, 0, 1)), new SeededIds('group-commit'));
  return { db, user, metering };
}

const settle = async <T,>(ps: Promise<T>[]) => Promise.allSettled(ps);

describe('grouped request charges', () => {
  it('commits the charges of one event-loop turn together: one transfer per user for their sum, nothing before', async () => {
    const { db, user, metering } = setup(100);
    const other = db.addUser('other');
    const before = transfersOf(db, user).length;
    const pending = Array.from({ length: 10 }, (_, i) => metering.chargeGrouped(metering.admit(user, 3), i % 3, `GET /r/${i}`));
    pending.push(metering.chargeGrouped(metering.admit(other, 1), 0, 'GET /other'));
    // Nothing is written until the turn ends: the callers are still waiting for their commit.
    expect(transfersOf(db, user).length).toBe(before);
    await Promise.all(pending);
    const lines = transfersOf(db, user).slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ amount: 13, memo: expect.stringMatching(/^10 requests: GET \/r\/0, GET \/r\/1, .*GET \/r\/9$/) });
    expect(transfersOf(db, other).at(-1)).toMatchObject({ amount: 1, memo: 'GET /other' });
    expect(balanceOf(db, user).available).toBe(100 - 13);
    expect(checkInvariants(db)).toEqual([]);
  });

  it('gives a request alone its own transfer and memo, as before groups', async () => {
    const { db, user, metering } = setup(100);
    await metering.chargeGrouped(metering.admit(user, 1), 1, 'GET /alone');
    await metering.chargeGrouped(metering.admit(user, 1), 1, 'GET /next');
    expect(transfersOf(db, user).slice(-2).map((l) => [l.amount, l.memo])).toEqual([[1, 'GET /alone'], [1, 'GET /next']]);
  });

  it('keeps each reservation until its group commits, so requests admitted meanwhile cannot overspend', async () => {
    const { db, user, metering } = setup(5);
    const first = metering.admit(user, 3);
    const charged = metering.chargeGrouped(first, 3, 'GET /a');
    // 5 credits, 3 promised to the queued charge: a request that may cost 3 is refused now.
    expect(() => metering.admit(user, 3)).toThrow(expect.objectContaining({ code: 'payment_required' }));
    await charged;
    expect(balanceOf(db, user).available).toBe(2);
    expect(() => metering.admit(user, 3)).toThrow(expect.objectContaining({ code: 'payment_required' }));
    metering.admit(user, 2).reservation.release();
  });

  it('refuses only the charge the balance cannot cover; the rest of its group commits', async () => {
    const { db, user, metering } = setup(10);
    const a = metering.admit(user, 1);
    const b = metering.admit(user, 1);
    const c = metering.admit(user, 1);
    // Another process spends 9 credits after they were admitted (reservations are per process).
    charge(db, { transferId: 'elsewhere', userId: user, amount: 9, nowMs: 0 });
    const results = await settle([metering.chargeGrouped(a, 1, 'GET /a'), metering.chargeGrouped(b, 1, 'GET /b'), metering.chargeGrouped(c, 0, 'GET /c')]);
    expect(results[0]!.status).toBe('fulfilled');
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: 'payment_required' } });
    expect(results[2]).toMatchObject({ status: 'rejected', reason: { code: 'payment_required' } });
    expect(balanceOf(db, user).available).toBe(0);
    // The group's transfer holds what was accepted: the first request's credit only.
    expect(transfersOf(db, user).at(-1)).toMatchObject({ amount: 1 });
    expect(checkInvariants(db)).toEqual([]);
    // Both reservations were given back: a later grant is fully available.
    metering.admit(user, 0).reservation.release();
  });

  it('fails every charge of a group whose transaction fails, and writes none of them', async () => {
    const { db, user, metering } = setup(10);
    const before = transfersOf(db, user).length;
    const queued = [metering.chargeGrouped(metering.admit(user, 1), 1, 'GET /a'), metering.chargeGrouped(metering.admit(user, 1), 1, 'GET /b')];
    db.close();
    const results = await settle(queued);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const reopened = openDb(db.name);
    expect(transfersOf(reopened, user).length).toBe(before);
    reopened.close();
  });

  it('checks the balance read with the key only while no ledger write of this process came after it', async () => {
    const { db, user, metering } = setup(10);
    // As authenticate() reads it: the balance and the ledger's write count at that moment.
    const readWithKey = { available: balanceOf(db, user).available, atLedgerWrite: ledgerWrites(db) };
    // Still current: used as is (a made-up 0 shows it is the value read, not a new read).
    expect(() => metering.reserve(user, 1, { ...readWithKey, available: 0 })).toThrow(expect.objectContaining({ code: 'payment_required' }));
    // A grouped charge commits: the count moves, and the request reads the balance again (2 left).
    await metering.chargeGrouped(metering.admit(user, 8), 8, 'GET /spend');
    expect(ledgerWrites(db)).toBeGreaterThan(readWithKey.atLedgerWrite);
    expect(() => metering.reserve(user, 3, readWithKey)).toThrow(expect.objectContaining({ code: 'payment_required' }));
    metering.reserve(user, 2, readWithKey).release();
    // A write inside a caller's transaction (a savepoint) counts too, before that transaction commits.
    const mark = ledgerWrites(db);
    db.transaction(() => grant(db, { transferId: 'more', userId: user, amount: 5, nowMs: 0 }))();
    expect(ledgerWrites(db)).toBeGreaterThan(mark);
  });

  it('keeps a group open while the next turns of the event loop add to it, at most eight turns', async () => {
    const { db, user, metering } = setup(100);
    const before = transfersOf(db, user).length;
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // One request a turn, ten turns in a row: the first group takes the first eight, the rest follow.
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      pending.push(metering.chargeGrouped(metering.admit(user, 1), 1, `GET /t/${i}`));
      await nextTurn();
    }
    await Promise.all(pending);
    const amounts = transfersOf(db, user).slice(before).map((l) => l.amount);
    expect(amounts[0]).toBe(8);
    expect(amounts.reduce((a, b) => a + b, 0)).toBe(10);
    // A turn that adds nothing closes the group: a lone request is committed by itself.
    await metering.chargeGrouped(metering.admit(user, 1), 1, 'GET /alone');
    expect(transfersOf(db, user).at(-1)).toMatchObject({ amount: 1, memo: 'GET /alone' });
    expect(checkInvariants(db)).toEqual([]);
  });
});

describe('a group waiting for another connection\'s write lock', () => {
  it('waits off the event loop: other work runs meanwhile, and the charge commits once the lock is free', async () => {
    const { db, user, metering } = setup(100);
    const other = openDb(db.name);
    try {
      other.prepare('BEGIN IMMEDIATE').run(); // a job's batch or `skein import` holding the lock
      let settled = false;
      const pending = metering.chargeGrouped(metering.admit(user, 1), 1, 'GET /waits').finally(() => (settled = true));
      // Timers fire while the charge waits: before, the process slept in SQLite's busy handler.
      let ticks = 0;
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 5));
        ticks++;
      }
      expect(ticks).toBe(10);
      expect(settled).toBe(false);
      expect(transfersOf(db, user).at(-1)?.memo).not.toBe('GET /waits');
      other.prepare('COMMIT').run();
      await pending;
      expect(transfersOf(db, user).at(-1)).toMatchObject({ amount: 1, memo: 'GET /waits' });
      // The connection's own busy timeout is back for everything else.
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(checkInvariants(db)).toEqual([]);
    } finally {
      other.close();
    }
  });

  it('gives up after the connection\'s busy timeout, as before, writing nothing', async () => {
    const { db, user } = setup(100);
    const other = openDb(db.name);
    const before = transfersOf(db, user).length;
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      db.pragma('busy_timeout = 40');
      const groups = new Metering(db, new ManualClock(Date.UTC(2026, 0, 1)), new SeededIds('group-commit-timeout'));
      await expect(groups.chargeGrouped(groups.admit(user, 1), 1, 'GET /gives-up')).rejects.toMatchObject({ code: 'internal', message: WRITE_LOCK_BUSY_MESSAGE, headers: { 'Retry-After': '5' } });
      expect(transfersOf(db, user)).toHaveLength(before);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(40);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
  });
});
