import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import {
  advanceCheckpoint, charge, checkInvariants, checkSinceCheckpoint, grant, holdForJob, LedgerInvariantError, readCheckpoint, writeCheckpoint,
} from '../../src/main/engine/ledger';
import { main } from '../../src/main/cli/index';
import { tempDir } from '../helpers/temp';

// The ledger checkpoint (issue 17): a start checks only what came after it, `skein doctor`
// re-derives everything. Real SQLite files; corruption is made with direct SQL, as a bug or a
// hand edit would.

const open: Engine[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
  vi.restoreAllMocks();
});

/** An engine without the periodic checkpointer: the tests move the checkpoint themselves. */
function start(dataDir: string): Engine {
  const e = createEngine({ dataDir, ledgerCheckpointEveryMs: 0 });
  open.push(e);
  return e;
}
function stop(e: Engine): void {
  e.close();
  open.splice(open.indexOf(e), 1);
}
function startError(dataDir: string): string {
  try {
    stop(start(dataDir));
  } catch (err) {
    expect(err).toBeInstanceOf(LedgerInvariantError);
    return (err as Error).message;
  }
  throw new Error('the start did not refuse the ledger');
}
const maxSeq = (e: Engine) => (e.db.prepare('SELECT max(seq) s FROM ledger_transfers').get() as { s: number }).s;
/** The app user's account (id 3): the built-in user that exists from the first start. */
const APP_ACCOUNT = 3;

function withCharges(dataDir: string, n: number, from = 0): Engine {
  const e = start(dataDir);
  for (let i = 0; i < n; i++) charge(e.db, { transferId: `req:t:${from + i}`, userId: 1, amount: 2, nowMs: 10 + i });
  return e;
}

async function doctor(dataDir: string): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const code = await main(['doctor', '--data-dir', dataDir]);
  vi.mocked(console.log).mockRestore();
  return { code, out: lines.join('\n') };
}

describe('ledger checkpoint at start', () => {
  it('a clean start moves the checkpoint to the newest transfer, and the next starts stay clean', () => {
    const dir = tempDir();
    const first = withCharges(dir, 20);
    const seq = maxSeq(first);
    expect(readCheckpoint(first.db).seq).toBeLessThan(seq); // the charges came after this start's checkpoint
    stop(first);
    const second = start(dir);
    expect(readCheckpoint(second.db)).toMatchObject({ seq, madeBy: 'start' });
    expect(checkSinceCheckpoint(second.db).violations).toEqual([]);
    expect(checkInvariants(second.db)).toEqual([]);
    stop(second);
    stop(start(dir));
  });

  it('refuses a balance changed behind the ledger after the checkpoint, though its transfers all came before it', () => {
    const dir = tempDir();
    stop(withCharges(dir, 5));
    const e = start(dir); // checkpoint now covers every transfer
    expect(readCheckpoint(e.db).seq).toBe(maxSeq(e));
    e.db.prepare('UPDATE ledger_accounts SET debits_posted = debits_posted - 4 WHERE id = ?').run(APP_ACCOUNT);
    e.db.prepare('UPDATE ledger_accounts SET credits_posted = credits_posted - 4 WHERE id = 2').run();
    stop(e);
    // debits = credits still holds: only re-deriving the sums shows it.
    expect(startError(dir)).toContain(`balance_matches_transfers: account ${APP_ACCOUNT} stores (dpend 0, dpost 6, cpend 0, cpost 100000) but its transfers sum to (0, 10, 0, 100000)`);
  });

  it('refuses a transfer written after the checkpoint without moving the running balances, even once the checkpoint covers it', () => {
    const dir = tempDir();
    stop(withCharges(dir, 5));
    const e = start(dir);
    const before = readCheckpoint(e.db).seq;
    e.db.prepare(`INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, created_at_ms) VALUES ('req:sneaky', 'posted', ?, 2, 7, 99)`).run(APP_ACCOUNT);
    expect(maxSeq(e)).toBeGreaterThan(before);
    stop(e);
    expect(startError(dir)).toContain(`account ${APP_ACCOUNT} stores (dpend 0, dpost 10, cpend 0, cpost 100000) but its transfers sum to (0, 17, 0, 100000)`);
    // The running checkpointer sums transfers, never balances: moving past the bad transfer hides nothing.
    const raw = createEngine({ dataDir: dir, startLedger: false, ledgerCheckpointEveryMs: 0 });
    expect(advanceCheckpoint(raw.db, 100, 1_000)).toBe(1);
    raw.close();
    expect(startError(dir)).toContain(`account ${APP_ACCOUNT} stores (dpend 0, dpost 10, cpend 0, cpost 100000) but its transfers sum to (0, 17, 0, 100000)`);
  });

  it('refuses an open hold whose row disagrees with its transfers, however old the hold', () => {
    const dir = tempDir();
    const e = start(dir);
    e.db.exec(`INSERT INTO jobs (id, user_id, kind, params_json, output_format, status, run_at_ms, created_at_ms, updated_at_ms) VALUES (41, 1, 'search', '{}', 'json', 'processing', 0, 0, 0)`);
    holdForJob(e.db, { transferId: 'job:41:hold', userId: 1, jobId: 41, amount: 70, nowMs: 5 });
    stop(e);
    const again = start(dir); // the hold's transfer is now before the checkpoint
    expect(readCheckpoint(again.db).seq).toBe(maxSeq(again));
    again.db.prepare(`UPDATE ledger_holds SET posted = 10 WHERE transfer_id = 'job:41:hold'`).run();
    stop(again);
    expect(startError(dir)).toContain(`hold_matches_transfers: hold 'job:41:hold' stores amount 70, posted 10, voided 0; transfers say 70, 0, 0`);
  });

  it('writes a checkpoint only over the one its sums came from (a racing or stale writer changes nothing)', () => {
    const dir = tempDir();
    const e = withCharges(dir, 3);
    const cp = readCheckpoint(e.db);
    expect(advanceCheckpoint(e.db, 50, 2)).toBe(2); // chunked: two transfers at most
    expect(readCheckpoint(e.db)).toMatchObject({ seq: cp.seq + 2, madeBy: 'running' });
    expect(writeCheckpoint(e.db, { fromSeq: cp.seq, seq: cp.seq + 3, sums: new Map(), nowMs: 60, by: 'running' })).toBe(false);
    expect(readCheckpoint(e.db).seq).toBe(cp.seq + 2);
    expect(advanceCheckpoint(e.db, 70, 1_000)).toBe(1);
    expect(advanceCheckpoint(e.db, 80, 1_000)).toBe(0);
    expect(checkSinceCheckpoint(e.db).violations).toEqual([]);
  });
});

describe('skein doctor', () => {
  it('finds an old transfer rewritten in place, which a start cannot see, and leaves the checkpoint', async () => {
    const dir = tempDir();
    stop(withCharges(dir, 5));
    const e = start(dir);
    const cp = readCheckpoint(e.db).seq;
    grant(e.db, { transferId: 'grant:later', userId: 1, amount: 3, nowMs: 200 }); // after the checkpoint: checked at start
    // Rewriting a transfer takes dropping the append-only trigger: a hand edit, not a code path.
    e.db.exec('DROP TRIGGER ledger_transfers_no_update');
    e.db.prepare(`UPDATE ledger_transfers SET amount = 9 WHERE id = 'req:t:0'`).run();
    e.db.exec(`CREATE TRIGGER ledger_transfers_no_update BEFORE UPDATE ON ledger_transfers BEGIN SELECT RAISE(ABORT, 'ledger transfers are append-only'); END`);
    stop(e);
    // The boundary: the start re-derives only transfers after its checkpoint, and this one is before it.
    const blind = start(dir);
    expect(checkSinceCheckpoint(blind.db).violations).toEqual([]);
    stop(blind);
    const { code, out } = await doctor(dir);
    expect(code).toBe(1);
    expect(out).toContain('The ledger is NOT sound');
    expect(out).toContain(`balance_matches_transfers: account ${APP_ACCOUNT} stores (dpend 0, dpost 10, cpend 0, cpost 100003) but its transfers sum to (0, 17, 0, 100003)`);
    const after = start(dir);
    expect(readCheckpoint(after.db).madeBy).toBe('start'); // a failed doctor run writes no checkpoint
    expect(readCheckpoint(after.db).seq).toBeGreaterThan(cp);
  });

  it('finds a closed hold whose row was changed after its last transfer, which a start cannot see', async () => {
    const dir = tempDir();
    const e = start(dir);
    holdForJob(e.db, { transferId: 'job:999:hold', userId: 1, jobId: 999, amount: 70, nowMs: 5 });
    stop(e);
    const second = start(dir); // releases the hold of the missing job; the checkpoint moves past it
    expect(readCheckpoint(second.db).seq).toBe(maxSeq(second));
    second.db.prepare(`UPDATE ledger_holds SET posted = 10, voided = 60 WHERE transfer_id = 'job:999:hold'`).run();
    stop(second);
    stop(start(dir)); // the boundary: a closed hold with no transfer since the checkpoint is not re-read
    const { code, out } = await doctor(dir);
    expect(code).toBe(1);
    expect(out).toContain(`hold_matches_transfers: hold 'job:999:hold' stores amount 70, posted 10, voided 60; transfers say 70, 0, 70`);
  });

  it('on a sound ledger says so and moves the checkpoint to the newest transfer', async () => {
    const dir = tempDir();
    const e = withCharges(dir, 8);
    const seq = maxSeq(e);
    stop(e);
    const { code, out } = await doctor(dir);
    expect(code).toBe(0);
    expect(out).toContain(`The ledger is sound: ${seq} transfers`);
    expect(out).toContain(`Checkpoint moved to transfer ${seq}.`);
    const again = start(dir);
    expect(readCheckpoint(again.db)).toMatchObject({ seq, madeBy: 'doctor' });
  });
});
