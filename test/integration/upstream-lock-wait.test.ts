import { afterEach, describe, expect, it } from 'vitest';
import { checkInvariants } from '../../src/main/engine/ledger';
import { type Db, openDb } from '../../src/main/engine/store/db';
import { getUpstreamConfig } from '../../src/main/engine/upstream';
import { DETAIL_ID, SPACE_ID } from '../fixtures/api-corpus';
import { gatewayPair, pathsFor, type Pair } from '../helpers/upstream-gateway';

// A read that Skein B fetches from its upstream (Skein A) writes to B's database up to four times:
// the upstream limiter's admission, the key's status (when it changes), the answer stored with its
// spend line, and the admission settled. While another connection holds B's write lock (`skein import` in its own
// process, ~270 ms per transaction) each of those waits off the event loop
// (store/when-write-free.ts), so B answers its other requests meanwhile. The other connection is in
// this very process: a wait inside SQLite's busy handler would also keep it from ever committing,
// and the read would fail after the busy timeout instead.

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

const others: Db[] = [];
afterEach(() => {
  for (const other of others.splice(0)) {
    if (other.inTransaction) other.prepare('ROLLBACK').run();
    other.close();
  }
});

/**
 * A read of B while `other` holds B's write lock, from before the read (`when: 'before'`: its
 * admission waits) or from the moment the request reaches A (`'at A'`: what comes after A's answer
 * waits, the key's status, the store and the settle). Still pending after timers have fired and B
 * answered another request; the lock is released then, and the answer returned.
 */
async function readWhileLocked(p: Pair, other: Db, read: string, when: 'before' | 'at A') {
  const lock = () => other.prepare('BEGIN IMMEDIATE').run();
  if (when === 'before') lock();
  else p.tap.onSeen = lock;
  let settled = false;
  const answer = p.get(read).finally(() => (settled = true));
  await ticks(10);
  expect(p.tap.seen).toHaveLength(when === 'before' ? 0 : 1);
  expect(other.inTransaction).toBe(true);
  expect(settled).toBe(false);
  // B answers a request that writes nothing while the read waits.
  expect((await p.get('/jobs/999999')).status).toBe(404);
  expect(settled).toBe(false);
  other.prepare('COMMIT').run();
  return answer;
}

async function setup() {
  const p = await gatewayPair({ profile: 'spec' });
  const other = openDb(p.b.dbFile);
  others.push(other);
  const unsettled = () => p.b.db.prepare('SELECT count(*) FROM upstream_admissions WHERE reserved_items > 0').pluck().get();
  return { p, other, unsettled };
}

describe('a read through the upstream while another connection holds the write lock', () => {
  it.each(['before', 'at A'] as const)('taken %s: is answered once the lock is free, the server answering meanwhile; stored, booked and settled once', async (when) => {
    const { p, other, unsettled } = await setup();
    const paths = pathsFor('/social');
    // A first read makes the key's status 'valid': after A's answer the read then writes only its
    // store, spend line and settle (the status is written on a change only; the next test has one).
    expect((await p.get(paths.space(SPACE_ID))).source).toBe('upstream');
    expect(getUpstreamConfig(p.b.db)!.keyStatus).toBe('valid');
    p.tap.seen.length = 0;
    const read = paths.tweet(DETAIL_ID);

    const r = await readWhileLocked(p, other, read, when);
    expect([r.status, r.source]).toEqual([200, 'upstream']);
    expect(r.text).toBe((await p.direct(read)).text);
    expect(p.tap.seen).toHaveLength(1);
    expect(p.spend().slice(1)).toEqual([{ items: 1, request: read, via: 'api', apiUserId: p.localUserId }]);
    expect(p.charged()).toEqual([1, 1]);
    expect(unsettled()).toBe(0);
    expect(getUpstreamConfig(p.b.db)!.keyStatus).toBe('valid');
    expect(checkInvariants(p.b.db)).toEqual([]);
    // Stored: the same read again is B's own copy.
    expect((await p.get(read)).source).toBe('cache');
  });

  it('taken at A: records a refused key once the lock is free, and says the key was refused', async () => {
    const { p, other, unsettled } = await setup();
    // A no longer knows B's key: it answers 401, which B records as the key's status.
    p.a.engine.db.prepare('UPDATE api_keys SET revoked_at_ms = 1 WHERE user_id = ?').run(p.a.userId);

    const r = await readWhileLocked(p, other, pathsFor('/social').tweet(DETAIL_ID), 'at A');
    expect(r.status).toBe(500);
    expect(r.text).toContain('refused the API key');
    expect(getUpstreamConfig(p.b.db)!.keyStatus).toBe('invalid');
    expect(p.spend()).toEqual([]);
    expect(unsettled()).toBe(0);
  });
});
