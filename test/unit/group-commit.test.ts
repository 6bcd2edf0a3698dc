import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/main/engine/clock';
import { SeededIds } from '../../src/main/engine/ids';
import { balanceOf, charge, checkInvariants, transfersOf } from '../../src/main/engine/ledger';
import { Metering } from '../../src/main/engine/metering';
import { openDb } from '../../src/main/engine/store/db';
import { ledgerDb } from '../helpers/ledger-db';

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
  it('commits the charges of one event-loop turn together, one transfer each, nothing before', async () => {
    const { db, user, metering } = setup(100);
    const before = transfersOf(db, user).length;
    const pending = Array.from({ length: 10 }, (_, i) => metering.chargeGrouped(metering.admit(user, 3), i % 3, `GET /r/${i}`));
    // Nothing is written until the turn ends: the callers are still waiting for their commit.
    expect(transfersOf(db, user).length).toBe(before);
    const results = await Promise.all(pending);
    expect(results.every((r) => r.created)).toBe(true);
    const lines = transfersOf(db, user).slice(before);
    expect(lines.map((l) => l.amount)).toEqual([1, 1, 2, 1, 1, 2, 1, 1, 2, 1]);
    expect(new Set(lines.map((l) => l.id)).size).toBe(10);
    expect(balanceOf(db, user).available).toBe(100 - 13);
    expect(checkInvariants(db)).toEqual([]);
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
    // Another process spends 9 credits after both were admitted (reservations are per process).
    charge(db, { transferId: 'elsewhere', userId: user, amount: 9, nowMs: 0 });
    const results = await settle([metering.chargeGrouped(a, 1, 'GET /a'), metering.chargeGrouped(b, 1, 'GET /b')]);
    expect(results[0]!.status).toBe('fulfilled');
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: 'payment_required' } });
    expect(balanceOf(db, user).available).toBe(0);
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
});
