import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/main/engine/clock';
import { createEngine } from '../../src/main/engine/engine';
import { SeededIds } from '../../src/main/engine/ids';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, checkInvariants, getHold, holdForJob, transfersOf } from '../../src/main/engine/ledger';
import { inWriteTx } from '../../src/main/engine/ledger/tx';
import { moveJournal } from '../../src/main/engine/metering/float-move';
import { floatOwners, openFloat } from '../../src/main/engine/ledger/float';
import { Metering } from '../../src/main/engine/metering';
import { FLOAT_CLOSED_MEMO, FLOAT_CREDITS, FLOAT_IDLE_MS } from '../../src/main/engine/metering/floats';
import { FloatJournal, journalDir } from '../../src/main/engine/metering/float-journal';
import { FLOAT_AFTER_WAIT_MS } from '../../src/main/engine/metering/group-commit';
import { openDb } from '../../src/main/engine/store/db';
import { ledgerOf } from '../../src/main/engine/handlers/settings';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';

// Metering floats (metering/floats.ts): while another connection holds skein.db's write lock (an
// import, a job's batch), a request's charge is answered from the user's float through the
// process's journal instead of waiting; the journal is posted when the lock frees. On a real data
// dir with a second real connection holding the lock.

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 3));
};

function setup(credits = 10_000) {
  const dataDir = tempDir();
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const engine = createEngine({ dataDir, clock, ids: new SeededIds('floats') });
  const user = createKey(engine, 'floats', { credits }).user.id;
  const metering = new Metering(engine.db, clock, new SeededIds('floats-metering'), dataDir);
  const other = openDb(engine.dbFile);
  const db = engine.db;
  const charge = (cost: number, path: string) => metering.chargeGrouped(metering.admit(user, cost), cost, path);
  /**
   * Holds the write lock, has one charge wait for it, frees it. Held longer than
   * FLOAT_AFTER_WAIT_MS (a batch writer's hold), the float is open after; shorter (a checkpoint's),
   * it is not.
   */
  async function contend(holdMs = FLOAT_AFTER_WAIT_MS + 15) {
    other.prepare('BEGIN IMMEDIATE').run();
    const waiting = charge(1, 'GET /waits');
    await new Promise((r) => setTimeout(r, holdMs));
    other.prepare('COMMIT').run();
    await waiting;
  }
  /** The server's shutdown: the metering's last flush (the floats posted and closed), then the connections. */
  function close() {
    metering.flush();
    if (other.open) other.close();
    if (engine.db.open) engine.close();
  }
  return { dataDir, clock, engine, db, user, metering, other, charge, contend, close };
}

describe('metering floats', () => {
  it('are not opened for a lock held as briefly as a checkpoint holds it', async () => {
    const { db, user, other, charge, contend, close } = setup();
    try {
      // The WAL checkpointer's RESTART takes the lock for the copy of a few ms of commits; a float
      // opened for that would cost every request after it for a minute (bench "post details").
      for (let i = 0; i < 5; i++) await contend(5);
      expect(floatOwners(db)).toHaveLength(0);
      // With no float, a charge waits for a batch writer's lock rather than being answered at once.
      other.prepare('BEGIN IMMEDIATE').run();
      let answered = false;
      const waiting = charge(1, 'GET /waits').then(() => (answered = true));
      await turns(3);
      expect(answered).toBe(false);
      other.prepare('COMMIT').run();
      await waiting;
      expect(balanceOf(db, user)).toMatchObject({ available: 10_000 - 6, pending: 0 });
    } finally {
      close();
    }
  });

  it('answer charges while another connection holds the write lock, and post them once it is free', async () => {
    const { db, dataDir, user, other, charge, contend, close } = setup();
    try {
      await contend();
      expect(floatOwners(db)).toHaveLength(1);
      // The journal and its WAL are private to the user, like skein.db.
      const files = readdirSync(journalDir(dataDir));
      expect(files.length).toBeGreaterThanOrEqual(2);
      for (const f of files) expect(statSync(join(journalDir(dataDir), f)).mode & 0o077).toBe(0);
      // The float is the process's reserve, not a job's hold: the balance shows it as available.
      expect(balanceOf(db, user)).toMatchObject({ available: 10_000 - 1, pending: 0 });

      other.prepare('BEGIN IMMEDIATE').run();
      let answered = 0;
      const during = [charge(2, 'GET /a').then(() => answered++), charge(3, 'GET /b').then(() => answered++)];
      await turns(5);
      // Answered with the lock still taken: without the float both would wait for it.
      expect(answered).toBe(2);
      expect(transfersOf(db, user).some((t) => t.memo?.includes('GET /a'))).toBe(false);
      expect(balanceOf(db, user)).toMatchObject({ available: 10_000 - 6, posted: 10_000 - 6, pending: 0 });
      other.prepare('COMMIT').run();
      await Promise.all(during);

      await charge(1, 'GET /after');
      const lines = transfersOf(db, user);
      const journaled = lines.find((t) => t.memo === '2 requests: GET /a, GET /b');
      expect(journaled).toMatchObject({ amount: 5 });
      expect(lines.at(-1)).toMatchObject({ memo: 'GET /after', amount: 1 });
      expect(balanceOf(db, user)).toMatchObject({ available: 10_000 - 7, posted: 10_000 - 7 });
      expect(checkInvariants(db)).toEqual([]);
    } finally {
      close();
    }
  });

  it('show the app\'s ledger as the balance it shows: each line\'s figure follows from the one before, the newest is the balance', async () => {
    const { engine, db, user, other, charge, contend, close } = setup();
    /** Every line's available figure is the older line's plus its own change; the newest is the balance above it. */
    const consistent = () => {
      const { balance, entries } = ledgerOf(engine, { user_id: user });
      expect(entries[0]!.available_after).toBe(balance.available);
      for (let i = 0; i + 1 < entries.length; i++) {
        expect(entries[i]!.available_after - entries[i + 1]!.available_after, entries[i]!.memo).toBe(entries[i]!.amount - entries[i]!.held);
      }
      return entries;
    };
    try {
      await contend();
      expect(balanceOf(db, user).available).toBe(10_000 - 1);
      // The float's hold holds nothing in this process's view: it is the process's reserve.
      expect(consistent()[0]).toMatchObject({ available_after: 10_000 - 1, held: 0, kind: 'hold' });
      // Less than half left: the commit tops the float up, releasing the one it replaces, said as such.
      await charge(FLOAT_CREDITS - 400, 'GET /big');
      expect(consistent().find((e) => e.kind === 'hold released')).toMatchObject({ held: 0, amount: 0, memo: FLOAT_CLOSED_MEMO });

      other.prepare('BEGIN IMMEDIATE').run();
      await Promise.all([charge(2, 'GET /a'), charge(3, 'GET /b')]);
      // Drawn in the journal, not yet in the ledger: one line says so.
      expect(consistent()[0]).toMatchObject({ amount: -5, status: 'pending', available_after: 10_000 - 6 - (FLOAT_CREDITS - 400), memo: expect.stringContaining('written to the ledger when it is done') });
      other.prepare('COMMIT').run();
      await charge(1, 'GET /after');
      const posted = consistent();
      expect(posted.some((e) => e.status === 'pending' && e.kind === 'charge')).toBe(false);
      expect(posted.find((e) => e.memo === '2 requests: GET /a, GET /b')).toMatchObject({ amount: -5, held: 0 });
      expect(posted[0]!.available_after).toBe(10_000 - 7 - (FLOAT_CREDITS - 400));
    } finally {
      close();
    }
  });

  it('let what the float cannot cover wait for the lock, and refuse only what the balance cannot', async () => {
    const { db, user, other, charge, contend, close } = setup(FLOAT_CREDITS + 10);
    try {
      await contend();
      // The whole float, then 12 more: the 12 wait for the lock and are charged from the balance (9 left) and the float's rest.
      other.prepare('BEGIN IMMEDIATE').run();
      let bigDone = false;
      const big = charge(FLOAT_CREDITS - 5, 'GET /big').then(() => (bigDone = true));
      await turns(3);
      expect(bigDone).toBe(true);
      let waitingDone = false;
      const waiting = charge(12, 'GET /over').then(() => (waitingDone = true));
      await turns(3);
      expect(waitingDone).toBe(false);
      other.prepare('COMMIT').run();
      await Promise.all([big, waiting]);
      // 2 are left, in the float opened again after the commit: a request that may cost 3 is refused.
      expect(() => charge(3, 'GET /short')).toThrow(/2 are available/);
      expect(balanceOf(db, user).available).toBe(FLOAT_CREDITS + 10 - 1 - (FLOAT_CREDITS - 5) - 12);
      expect(checkInvariants(db)).toEqual([]);
    } finally {
      close();
    }
  });

  it('give their credits back to a job of the same process that needs them', async () => {
    const { db, user, contend, close } = setup(1_500);
    try {
      await contend();
      expect(floatOwners(db)).toHaveLength(1);
      // Without the release the hold would be refused: 1,499 are the user's, 1,000 of them in the float.
      const hold = holdForJob(db, { transferId: 'job:900:hold', userId: user, jobId: 900, amount: 1_400, nowMs: 0 });
      expect(hold.amount).toBe(1_400);
      expect(floatOwners(db)).toEqual([]);
    } finally {
      close();
    }
  });

  it('close once no charge has waited for FLOAT_IDLE_MS, and leave no journal behind at shutdown', async () => {
    const { db, dataDir, clock, contend, charge, metering, engine } = setup();
    try {
      await contend();
      expect(floatOwners(db)).toHaveLength(1);
      clock.advance(FLOAT_IDLE_MS);
      await charge(1, 'GET /quiet');
      expect(floatOwners(db)).toEqual([]);
      await contend();
      expect(floatOwners(db)).toHaveLength(1);
    } finally {
      metering.flush();
    }
    expect(floatOwners(db)).toEqual([]);
    expect(readdirSync(journalDir(dataDir))).toEqual([]);
    expect(checkInvariants(db)).toEqual([]);
    engine.close();
  });

  it('of a live process are left alone by another start on the same data dir, which names them apart from jobs', async () => {
    const { db, dataDir, contend, close } = setup();
    try {
      await contend();
      const second = createEngine({ dataDir });
      second.close();
      expect(floatOwners(db)).toHaveLength(1);
      // `skein credits` in another process cannot see the server's journal, and no job holds anything.
      const text = await runCli('credits', 'ledger', '--user', 'floats', '--limit', '1', '--data-dir', dataDir);
      expect(text.out.split('\n')[0]).toBe(
        `floats: ${10_000 - 1 - FLOAT_CREDITS} credits available, 0 held for running jobs, ${FLOAT_CREDITS} held by the API server while another program writes to the database. 3 transfers, the last 1 shown (--limit N).`,
      );
      expect(floatOwners(db)).toHaveLength(1);
    } finally {
      close();
    }
  });

  it('of a process that was killed are settled by the next start: its journal posted, its floats voided', () => {
    const dataDir = tempDir();
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'metering-float-child.ts'), dataDir], { encoding: 'utf8', timeout: 60_000 });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const { user } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { user: number };
    expect(readdirSync(journalDir(dataDir)).filter((f) => f.endsWith('.db'))).toHaveLength(1);

    const engine = createEngine({ dataDir });
    try {
      expect(floatOwners(engine.db)).toEqual([]);
      const lines = transfersOf(engine.db, user);
      // The two answers' rows, posted as one move from the float.
      expect(lines.find((t) => t.memo === '2 requests: GET /journaled-a, GET /journaled-b')).toMatchObject({ amount: 5, kind: 'post_pending' });
      expect(balanceOf(engine.db, user)).toMatchObject({ available: 5_000 - 6, pending: 0 });
      expect(existsSync(journalDir(dataDir)) ? readdirSync(journalDir(dataDir)).filter((f) => f.endsWith('.db')) : []).toEqual([]);
      expect(checkInvariants(engine.db)).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it('of a killed process go aside with their database at a restore, and come back when that database is restored', async () => {
    const dataDir = tempDir();
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'metering-float-child.ts'), dataDir], { encoding: 'utf8', timeout: 60_000 });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const { user } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { user: number };
    const journals = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.db')) : []);
    expect(journals(journalDir(dataDir))).toHaveLength(1);

    // Another history restored over it: the dead server's charges belong to the replaced database.
    const other = tempDir();
    createEngine({ dataDir: other }).close();
    const backup = join(tempDir(), 'other.db');
    expect((await runCli('backup', '--to', backup, '--data-dir', other)).code).toBe(0);
    const restored = await runCli('restore', backup, '--force', '--json', '--data-dir', dataDir);
    expect(restored.code, restored.err).toBe(0);
    const report = JSON.parse(restored.out) as { kept_aside: string; journals_kept_aside: number; journals_restored: number };
    expect(report).toMatchObject({ journals_kept_aside: 1, journals_restored: 0 });
    expect(journals(journalDir(dataDir))).toEqual([]);
    expect(journals(join(report.kept_aside, 'metering'))).toHaveLength(1);
    createEngine({ dataDir }).close(); // a start on the restored database finds no journal to post

    // The kept database put back: its journal comes along and the next start posts it there.
    const back = await runCli('restore', join(report.kept_aside, 'skein.db'), '--force', '--data-dir', dataDir);
    expect(back.code, back.err).toBe(0);
    expect(back.out).toContain(`Brought 1 metering journal along from beside ${join(report.kept_aside, 'skein.db')}: the next start writes their charges to the ledger.`);
    expect(back.out).not.toMatch(/Moved \d+ metering journal/);
    const engine = createEngine({ dataDir });
    try {
      expect(transfersOf(engine.db, user).find((t) => t.memo === '2 requests: GET /journaled-a, GET /journaled-b')).toMatchObject({ amount: 5, kind: 'post_pending' });
      expect(balanceOf(engine.db, user)).toMatchObject({ available: 5_000 - 6, pending: 0 });
      expect(floatOwners(engine.db)).toEqual([]);
      expect(checkInvariants(engine.db)).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it('post a journal move once, however often it is tried again, and each later row in a move of its own', () => {
    const dataDir = tempDir();
    const engine = createEngine({ dataDir });
    const user = createKey(engine, 'moves', { credits: 500 }).user.id;
    const journal = new FloatJournal(join(dataDir, 'metering', 'test-owner.db'));
    try {
      const hold = openFloat(engine.db, { transferId: 'float:test-owner:0', userId: user, owner: 'test-owner', amount: 100, nowMs: 0 });
      const row = (n: number, amount: number) => ({ transferId: `req:t:${n}`, holdId: hold.holdId, userId: user, amount, requests: 1, memo: `GET /${n}`, createdAtMs: n });
      journal.add([row(1, 2), row(2, 3)]);
      const post = () => inWriteTx(engine.db, () => moveJournal(engine.db, journal.claimMoves()));
      expect(post()).toHaveLength(1);
      // The commit happened but the rows never left the journal (a crash in between): tried again, nothing changes.
      const lines = transfersOf(engine.db, user).length;
      expect(post()).toHaveLength(1);
      expect(transfersOf(engine.db, user)).toHaveLength(lines);
      journal.add([row(3, 4)]);
      const moves = journal.claimMoves();
      expect(moves.map((m) => [m.transferId, m.amount, m.memo])).toEqual([['req:t:1', 5, '2 requests: GET /1, GET /2'], ['req:t:3', 4, 'GET /3']]);
      inWriteTx(engine.db, () => moveJournal(engine.db, moves));
      journal.removeMoves(moves);
      expect(journal.isEmpty()).toBe(true);
      expect(getHold(engine.db, hold.holdId)).toMatchObject({ posted: 9, remaining: 91 });
      expect(checkInvariants(engine.db)).toEqual([]);
    } finally {
      journal.close();
      engine.close();
    }
  });
});
