import type { Statement } from 'better-sqlite3';
import type { Db } from './db';

/**
 * Whether the database may have changed since an earlier look, told without a read transaction
 * each time: a value read from it (an API key's row, keys/authenticate.ts) is reused while the
 * stamp it was read under still holds.
 *
 * - This connection's own writes: `total_changes()`, which touches no table (~0.1 µs).
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
}

const probes = new WeakMap<Db, Probe>();

function probeOf(db: Db): Probe {
  let p = probes.get(db);
  if (!p) {
    p = { dataVersion: db.prepare('PRAGMA data_version').pluck(), totalChanges: db.prepare('SELECT total_changes()').pluck(), thisTurn: undefined };
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

export function changeStamp(db: Db): ChangeStamp {
  const p = probeOf(db);
  return { dataVersion: dataVersion(p), totalChanges: p.totalChanges.get() as number };
}

/** True when nothing was written to `db`, by this connection or another, since `stamp` was taken. */
export function unchangedSince(db: Db, stamp: ChangeStamp): boolean {
  const p = probeOf(db);
  return p.totalChanges.get() === stamp.totalChanges && dataVersion(p) === stamp.dataVersion;
}
