import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine } from '../helpers/engine';
import { authenticate, createKey, revokeKey } from '../../src/main/engine/keys';
import { grant } from '../../src/main/engine/ledger';
import { meteringOf } from '../../src/main/engine/metering';
import { openDb } from '../../src/main/engine/store/db';

// authenticate() reuses a key's row while the database is unchanged (keys/authenticate.ts): these
// are the changes that must be seen by the very next request anyway.

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

describe('a remembered key', () => {
  it('is refused at once when revoked in this process', () => {
    const engine = testEngine();
    const { key } = createKey(engine, 'lab');
    expect(authenticate(engine, key).name).toBe('lab');
    expect(authenticate(engine, key).name).toBe('lab');
    revokeKey(engine, key);
    expect(refusal(() => authenticate(engine, key))).toMatch(/revoked/);
  });

  it('is refused from the next turn when another process revokes it, and its new limit applies', async () => {
    const engine = testEngine();
    const { key, keyId, user } = createKey(engine, 'lab');
    expect(authenticate(engine, key).perMinuteLimit).toBe(120);
    await nextTurn();
    expect(authenticate(engine, key).perMinuteLimit).toBe(120);
    // Another connection, as `skein users set-limit` and `skein keys revoke` in another process.
    const other = new Database(join(engine.dataDir, 'skein.db'));
    try {
      other.prepare('UPDATE api_users SET per_minute_limit = 7 WHERE id = ?').run(user.id);
      await nextTurn();
      expect(authenticate(engine, key).perMinuteLimit).toBe(7);
      other.prepare('UPDATE api_keys SET revoked_at_ms = 1 WHERE id = ?').run(keyId);
      await nextTurn();
      expect(refusal(() => authenticate(engine, key))).toMatch(/revoked/);
    } finally {
      other.close();
    }
  });

  it('carries the balance as it is after this process spends or grants', async () => {
    const engine = testEngine();
    const { key, user } = createKey(engine, 'lab', { credits: 10 });
    expect(authenticate(engine, key).credits.available).toBe(10);
    const metering = meteringOf(engine);
    const reservation = metering.reserve(user.id, 1, authenticate(engine, key).credits);
    metering.charge({ userId: user.id, reservation }, 3, 'GET /test');
    expect(authenticate(engine, key).credits.available).toBe(7);
    grant(engine.db, { transferId: 'test:more', userId: user.id, amount: 5, nowMs: engine.clock.nowMs() });
    expect(authenticate(engine, key).credits.available).toBe(12);
  });
});

describe('a key remembered across group commits', () => {
  // The metering's group commit does not make a remembered key stale (store/change-stamp.ts
  // unstamped); the balance it changes comes from the commit itself (metering/committed-balances.ts).
  const paymentRequired = expect.objectContaining({ code: 'payment_required' });

  it('sees the balance the commit left', async () => {
    const engine = testEngine();
    const { key, user } = createKey(engine, 'lab', { credits: 3 });
    const metering = meteringOf(engine);
    const reserve = () => metering.reserve(user.id, 1, authenticate(engine, key).credits);
    await Promise.all([0, 1, 2].map((i) => metering.chargeGrouped({ userId: user.id, reservation: reserve() }, 1, `GET /r/${i}`)));
    expect(() => reserve()).toThrow(paymentRequired);
    expect(() => metering.reserve(user.id, 1)).toThrow(paymentRequired);
  });

  it("sees another process's grant from the next turn, not the balance the commit left", async () => {
    const engine = testEngine();
    const { user } = createKey(engine, 'lab', { credits: 1 });
    const metering = meteringOf(engine);
    await metering.chargeGrouped({ userId: user.id, reservation: metering.reserve(user.id, 1) }, 1, 'GET /r');
    expect(() => metering.reserve(user.id, 1)).toThrow(paymentRequired);
    const other = openDb(engine.dbFile);
    try {
      grant(other, { transferId: 'test:other-process', userId: user.id, amount: 5, nowMs: engine.clock.nowMs() });
    } finally {
      other.close();
    }
    await nextTurn();
    expect(metering.reserve(user.id, 5).amount).toBe(5);
  });

  it('is refused at once when revoked in this process after a commit', async () => {
    const engine = testEngine();
    const { key, user } = createKey(engine, 'lab', { credits: 5 });
    const metering = meteringOf(engine);
    await metering.chargeGrouped({ userId: user.id, reservation: metering.reserve(user.id, 1, authenticate(engine, key).credits) }, 1, 'GET /r');
    expect(authenticate(engine, key).name).toBe('lab');
    revokeKey(engine, key);
    expect(refusal(() => authenticate(engine, key))).toMatch(/revoked/);
  });
});

describe('a remembered key, used after a quiet minute', () => {
  it('still has its last use written once a minute', () => {
    const engine = testEngine();
    const { key, keyId } = createKey(engine, 'lab');
    const usedAt = () => engine.db.prepare('SELECT last_used_at_ms FROM api_keys WHERE id = ?').pluck().get(keyId);
    authenticate(engine, key);
    const first = engine.clock.nowMs();
    expect(usedAt()).toBe(first);
    engine.clock.advance(30_000);
    authenticate(engine, key);
    expect(usedAt()).toBe(first);
    engine.clock.advance(30_000);
    authenticate(engine, key);
    expect(usedAt()).toBe(first + 60_000);
  });
});

describe("a key's last use", () => {
  it('is not written while another process holds the write lock, and the request does not wait for it', async () => {
    const engine = testEngine();
    const { key, keyId } = createKey(engine, 'lab');
    const usedAt = () => engine.db.prepare('SELECT last_used_at_ms FROM api_keys WHERE id = ?').pluck().get(keyId);
    // Another process in a write transaction for 1.5 s, as `skein import` holds the lock for each
    // batch: shorter than the 5 s busy timeout, so a touch that waited would be written once it ends.
    const holder = spawn(
      process.execPath,
      ['-e', "const db = new (require('better-sqlite3'))(process.argv[1]); db.prepare('BEGIN IMMEDIATE').run(); console.log('held'); setTimeout(() => db.prepare('COMMIT').run(), 1500);", engine.dbFile],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(holder.stdout!, 'data');
      expect(authenticate(engine, key).name).toBe('lab');
      expect(usedAt()).toBeNull();
    } finally {
      holder.kill();
      await once(holder, 'exit');
    }
    // The next request, with the lock free, writes it.
    authenticate(engine, key);
    expect(usedAt()).toBe(engine.clock.nowMs());
  });
});
