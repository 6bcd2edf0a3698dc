import type { Statement } from 'better-sqlite3';
import type { Db } from './db';

/**
 * Whether the database may have changed since an earlier look, told without a read transaction
 * each time: a value read from it (an API key's row, keys/authenticate.ts) is reused while the
 * stamp it was read under still holds.
 *
 * - This connection's own writes: `total_changes()`, which touches no table (~0.1 µs), less the
 *   writes run through unstamped() (below).
 * - Other connections' commits (the CLI's `skein keys revoke`, a worker thread): `PRAGMA
 *   data_version`, which takes a read lock on the WAL index (~5.6 µs, as much as the read it would
 *   save), so it is asked once per turn of the event loop and shared by the requests of that turn
 *   (bench/api, 16 in flight: ~3.5 a turn). A commit elsewhere is seen by the next turn's requests.
 */
export interface ChangeStamp {
  readonly dataVersion: number;
  readonly totalChanges: number;
}

interface Probe {
  dataVersion: Statement;
  totalChanges: Statement;
  /** data_version as asked this turn; undefined once the turn is over. */
  thisTurn: number | undefined;
  /** Changes of this connection's writes run through unstamped(): total_changes() less these is what a stamp compares. */
  unstamped: number;
}

const probes = new WeakMap<Db, Probe>();

function probeOf(db: Db): Probe {
  let p = probes.get(db);
  if (!p) {
    p = { dataVersion: db.prepare('PRAGMA data_version').pluck(), totalChanges: db.prepare('SELECT total_changes()').pluck(), thisTurn: undefined, unstamped: 0 };
    probes.set(db, p);
  }
  return p;
}

function dataVersion(p: Probe): number {
  if (p.thisTurn === undefined) {
    p.thisTurn = p.dataVersion.get() as number;
    // setImmediate: after this turn's poll phase, so every request parsed in it shares the answer.
    setImmediate(() => (p.thisTurn = undefined));
  }
  return p.thisTurn;
}

const ownChanges = (p: Probe) => (p.totalChanges.get() as number) - p.unstamped;

export function changeStamp(db: Db): ChangeStamp {
  const p = probeOf(db);
  return { dataVersion: dataVersion(p), totalChanges: ownChanges(p) };
}

/** True when nothing was written to `db`, by this connection or another, since `stamp` was taken. */
export function unchangedSince(db: Db, stamp: ChangeStamp): boolean {
  const p = probeOf(db);
  return ownChanges(p) === stamp.totalChanges && dataVersion(p) === stamp.dataVersion;
}

/**
 * data_version as this turn's stamps see it: another connection's commit changes it, this
 * connection's own do not. Equal to a value read inside one of this connection's transactions
 * (dataVersionNow) means no other connection has committed since, as far as this turn can tell.
 */
export function dataVersionThisTurn(db: Db): number {
  return dataVersion(probeOf(db));
}

/** data_version asked now, not shared with the turn: inside a write transaction, the state it works on. */
export function dataVersionNow(db: Db): number {
  return probeOf(db).dataVersion.get() as number;
}

/**
 * Runs `write`, a write of this connection that the caller knows changes no row a stamped value
 * was read from, without making the stamps taken before it stale. The one caller is the
 * metering's group commit, which writes ledger rows only: after each group the first request
 * read its API key's row again (a three-table join, ~20 µs of server CPU, bench "post details"),
 * though the key, its user and its limit had not changed. A balance read with a key carries its
 * own stamp (ledgerWrites), which such a write does move.
 */
export function unstamped<T>(db: Db, write: () => T): T {
  const p = probeOf(db);
  const before = p.totalChanges.get() as number;
  try {
    return write();
  } finally {
    p.unstamped += (p.totalChanges.get() as number) - before;
  }
}
