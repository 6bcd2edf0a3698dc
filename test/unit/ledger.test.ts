import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import {
  balanceOf, charge, checkInvariants, getHold, grant, holdForJob, LedgerInvariantError, openHolds, postFromHold, transfersOf, voidHold,
} from '../../src/main/engine/ledger';
import { ledgerDb } from '../helpers/ledger-db';
import { errorCode } from '../helpers/error-code';
import { tempDir } from '../helpers/temp';

const OPENING = 100_000;
const now = 1_700_000_000_000;
let dbs: ReturnType<typeof ledgerDb>[] = [];
afterEach(() => {
  for (const d of dbs) d.close();
  dbs = [];
});
function setup() {
  const db = ledgerDb();
  dbs.push(db);
  const u = db.addUser('alice');
  return { db, u };
}

describe('ledger accounts and grants', () => {
  it('gives the built-in app user and every new user an account with the opening grant', () => {
    const { db, u } = setup();
    expect(balanceOf(db, 1)).toMatchObject({ posted: OPENING, pending: 0, available: OPENING });
    expect(balanceOf(db, u)).toMatchObject({ posted: OPENING, available: OPENING });
    expect(transfersOf(db, u).map((t) => t.id)).toEqual([`grant:opening:${u}`]);
    expect(checkInvariants(db)).toEqual([]);
  });

  it('a grant is idempotent by id and refuses the same id with other content', () => {
    const { db, u } = setup();
    expect(grant(db, { transferId: 'g1', userId: u, amount: 50, nowMs: now }).created).toBe(true);
    const again = grant(db, { transferId: 'g1', userId: u, amount: 50, nowMs: now + 5 });
    expect(again.created).toBe(false);
    expect(again.transfer.createdAtMs).toBe(now);
    expect(balanceOf(db, u).available).toBe(OPENING + 50);
    expect(errorCode(() => grant(db, { transferId: 'g1', userId: u, amount: 51, nowMs: now }))).toBe('conflict');
    expect(errorCode(() => grant(db, { transferId: 'g1', userId: 1, amount: 50, nowMs: now }))).toBe('conflict');
    expect(balanceOf(db, u).available).toBe(OPENING + 50);
    expect(checkInvariants(db)).toEqual([]);
  });

  it.each([
    ['zero', 0], ['negative', -1], ['fraction', 1.5], ['NaN', NaN], ['too large', 1e13], ['string', '5'],
  ])('refuses a grant amount that is %s', (_name, amount) => {
    const { db, u } = setup();
    expect(errorCode(() => grant(db, { transferId: 'g', userId: u, amount: amount as number, nowMs: now }))).toBe('invalid');
    expect(balanceOf(db, u).available).toBe(OPENING);
  });

  it('refuses an unknown user with not_found', () => {
    const { db } = setup();
    expect(errorCode(() => grant(db, { transferId: 'g', userId: 999, amount: 1, nowMs: now }))).toBe('not_found');
  });
});

describe('ledger charges', () => {
  it('charges down to exactly zero and then refuses with payment_required, changing nothing', () => {
    const { db, u } = setup();
    charge(db, { transferId: 'c1', userId: u, amount: OPENING - 3, nowMs: now });
    charge(db, { transferId: 'c2', userId: u, amount: 3, nowMs: now });
    expect(balanceOf(db, u).available).toBe(0);
    expect(errorCode(() => charge(db, { transferId: 'c3', userId: u, amount: 1, nowMs: now }))).toBe('payment_required');
    expect(balanceOf(db, u).available).toBe(0);
    // a retry of a charge that went through still answers (idempotent), even at zero balance
    expect(charge(db, { transferId: 'c2', userId: u, amount: 3, nowMs: now }).created).toBe(false);
    expect(checkInvariants(db)).toEqual([]);
  });

  it('applies the idempotency rule to a charge whether or not the balance covers it', () => {
    const { db, u } = setup();
    const first = charge(db, { transferId: 'c1', userId: u, amount: 5, nowMs: now, memo: 'GET /a' });
    expect(first.created).toBe(true);
    // the same id with the balance still sufficient: the original, nothing appended or moved
    const again = charge(db, { transferId: 'c1', userId: u, amount: 5, nowMs: now + 1, memo: 'other memo' });
    expect(again).toEqual({ transfer: first.transfer, created: false });
    expect(balanceOf(db, u).available).toBe(OPENING - 5);
    // other content under the same id is a conflict, with or without enough credits
    expect(errorCode(() => charge(db, { transferId: 'c1', userId: u, amount: 6, nowMs: now }))).toBe('conflict');
    expect(errorCode(() => charge(db, { transferId: 'c1', userId: u, amount: OPENING * 2, nowMs: now }))).toBe('conflict');
    expect(errorCode(() => charge(db, { transferId: 'grant:opening:' + u, userId: u, amount: 1, nowMs: now }))).toBe('conflict');
    expect(transfersOf(db, u).map((t) => [t.id, t.amount, t.memo])).toEqual([
      ['grant:opening:' + u, OPENING, 'opening balance'],
      ['c1', 5, 'GET /a'],
    ]);
    // what charge returned is what is stored
    expect(transfersOf(db, u)[1]).toMatchObject({ ...first.transfer, direction: 'out' });
    expect(checkInvariants(db)).toEqual([]);
  });

  it('rolls a charge back with the caller transaction', () => {
    const { db, u } = setup();
    expect(() =>
      db.transaction(() => {
        charge(db, { transferId: 'c1', userId: u, amount: 10, nowMs: now });
        throw new Error('the rows failed to write');
      })(),
    ).toThrow('the rows failed');
    expect(balanceOf(db, u).available).toBe(OPENING);
    expect(transfersOf(db, u)).toHaveLength(1);
  });

  it('keeps transfers append-only at the SQL level', () => {
    const { db } = setup();
    expect(() => db.prepare('UPDATE ledger_transfers SET amount = 1').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM ledger_transfers').run()).toThrow(/append-only/);
  });
});

describe('ledger holds', () => {
  it('holds, posts in parts, voids the rest', () => {
    const { db, u } = setup();
    db.addJob(7, 'processing');
    const hold = holdForJob(db, { transferId: 'job:7:hold', userId: u, jobId: 7, amount: 100, nowMs: now });
    expect(hold).toMatchObject({ amount: 100, remaining: 100, open: true });
    expect(balanceOf(db, u)).toMatchObject({ posted: OPENING, pending: 100, available: OPENING - 100 });
    postFromHold(db, { holdId: hold.holdId, transferId: 'job:7:rows:0', amount: 20, nowMs: now });
    postFromHold(db, { holdId: hold.holdId, transferId: 'job:7:rows:20', amount: 20, nowMs: now });
    // a resumed job replays batch 20: nothing changes
    expect(postFromHold(db, { holdId: hold.holdId, transferId: 'job:7:rows:20', amount: 20, nowMs: now }).created).toBe(false);
    expect(errorCode(() => postFromHold(db, { holdId: hold.holdId, transferId: 'job:7:rows:20', amount: 19, nowMs: now }))).toBe('conflict');
    expect(balanceOf(db, u)).toMatchObject({ posted: OPENING - 40, pending: 60, available: OPENING - 100 });
    expect(checkInvariants(db)).toEqual([]);
    db.transaction(() => {
      expect(voidHold(db, { holdId: hold.holdId, transferId: 'job:7:void', nowMs: now }).transfer?.amount).toBe(60);
      db.setJob(7, 'success');
    })();
    expect(balanceOf(db, u)).toMatchObject({ posted: OPENING - 40, pending: 0, available: OPENING - 40 });
    expect(getHold(db, hold.holdId)).toMatchObject({ posted: 40, voided: 60, remaining: 0, open: false });
    // every exit path may void again
    expect(voidHold(db, { holdId: hold.holdId, transferId: 'job:7:void', nowMs: now }).created).toBe(false);
    expect(voidHold(db, { holdId: hold.holdId, transferId: 'job:7:void-again', nowMs: now })).toEqual({ transfer: null, created: false });
    expect(checkInvariants(db)).toEqual([]);
  });

  it('refuses a hold larger than the available balance with payment_required (other holds counted)', () => {
    const { db, u } = setup();
    db.addJob(1, 'pending');
    db.addJob(2, 'pending');
    holdForJob(db, { transferId: 'h1', userId: u, jobId: 1, amount: OPENING - 10, nowMs: now });
    expect(errorCode(() => holdForJob(db, { transferId: 'h2', userId: u, jobId: 2, amount: 11, nowMs: now }))).toBe('payment_required');
    expect(errorCode(() => charge(db, { transferId: 'c', userId: u, amount: 11, nowMs: now }))).toBe('payment_required');
    holdForJob(db, { transferId: 'h2', userId: u, jobId: 2, amount: 10, nowMs: now });
    expect(balanceOf(db, u).available).toBe(0);
    expect(openHolds(db, u)).toHaveLength(2);
    expect(checkInvariants(db)).toEqual([]);
  });

  it('refuses posting more than the remainder and posting to a closed hold', () => {
    const { db, u } = setup();
    db.addJob(3, 'processing');
    const h = holdForJob(db, { transferId: 'h', userId: u, jobId: 3, amount: 5, nowMs: now });
    expect(errorCode(() => postFromHold(db, { holdId: h.holdId, transferId: 'p1', amount: 6, nowMs: now }))).toBe('conflict');
    postFromHold(db, { holdId: h.holdId, transferId: 'p1', amount: 5, nowMs: now });
    expect(getHold(db, 'h').open).toBe(false);
    expect(errorCode(() => postFromHold(db, { holdId: h.holdId, transferId: 'p2', amount: 0, nowMs: now }))).toBe('conflict');
    expect(errorCode(() => postFromHold(db, { holdId: 'nope', transferId: 'p3', amount: 1, nowMs: now }))).toBe('not_found');
  });

  it('a zero hold (a post without replies) is closed at once', () => {
    const { db, u } = setup();
    db.addJob(4, 'pending');
    expect(holdForJob(db, { transferId: 'h0', userId: u, jobId: 4, amount: 0, nowMs: now })).toMatchObject({ open: false, remaining: 0 });
    db.setJob(4, 'success');
    expect(checkInvariants(db)).toEqual([]);
  });
});

describe('ledger invariants', () => {
  it('reports an open hold whose job has ended or does not exist', () => {
    const { db, u } = setup();
    db.addJob(9, 'processing');
    holdForJob(db, { transferId: 'h9', userId: u, jobId: 9, amount: 10, nowMs: now });
    expect(checkInvariants(db)).toEqual([]);
    db.setJob(9, 'error');
    expect(checkInvariants(db)).toEqual([
      { rule: 'open_hold_without_running_job', detail: "hold 'h9' is open but job 9 is error" },
    ]);
    db.exec('DROP TABLE jobs');
    expect(checkInvariants(db).map((v) => v.rule)).toEqual(['open_hold_without_running_job']);
  });

  it('reports balances that disagree with the transfers and unbalanced books', () => {
    const { db, u } = setup();
    db.prepare('UPDATE ledger_accounts SET credits_posted = credits_posted + 5 WHERE user_id = ?').run(u);
    const rules = checkInvariants(db).map((v) => v.rule);
    expect(rules).toContain('debits_equal_credits');
    expect(rules).toContain('balance_matches_transfers');
  });

  it('reports a hold row that disagrees with its transfers', () => {
    const { db, u } = setup();
    db.addJob(5, 'processing');
    holdForJob(db, { transferId: 'h5', userId: u, jobId: 5, amount: 10, nowMs: now });
    db.prepare("UPDATE ledger_holds SET posted = 3 WHERE transfer_id = 'h5'").run();
    expect(checkInvariants(db).map((v) => v.rule)).toEqual(['hold_matches_transfers']);
  });

  it('the CHECK constraint stops an overdraft even if code forgot to check', () => {
    const { db, u } = setup();
    expect(() => db.prepare('UPDATE ledger_accounts SET debits_posted = credits_posted + 1 WHERE user_id = ?').run(u)).toThrow(/CHECK/);
  });
});

describe('engine start', () => {
  it('checks the ledger and refuses to start on a broken one, naming the violation', () => {
    const dataDir = tempDir();
    const first = createEngine({ dataDir });
    first.db.prepare('UPDATE ledger_accounts SET credits_posted = credits_posted + 5 WHERE user_id = 1').run();
    first.close();
    let thrown: unknown;
    try {
      createEngine({ dataDir }).close();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(LedgerInvariantError);
    expect((thrown as Error).message).toContain('balance_matches_transfers: account 3 stores (dpend 0, dpost 0, cpend 0, cpost 100005) but its transfers sum to (0, 0, 0, 100000)');
  });

  it('releases a hold whose job is gone, recording why, and starts', () => {
    const dataDir = tempDir();
    const first = createEngine({ dataDir });
    holdForJob(first.db, { transferId: 'job:999:hold', userId: 1, jobId: 999, amount: 70, nowMs: 5 });
    expect(balanceOf(first.db, 1)).toMatchObject({ pending: 70, available: OPENING - 70 });
    first.close();
    const second = createEngine({ dataDir });
    expect(balanceOf(second.db, 1)).toMatchObject({ pending: 0, available: OPENING });
    const last = transfersOf(second.db, 1).at(-1)!;
    expect(last).toMatchObject({ id: 'release:job:999:hold', kind: 'void_pending', amount: 70, memo: 'released at start: job 999 is missing' });
    expect(checkInvariants(second.db)).toEqual([]);
    second.close();
  });
});
