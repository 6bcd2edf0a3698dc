import { join } from 'node:path';
import { ManualClock } from '../../src/main/engine/clock';
import { SeededIds } from '../../src/main/engine/ids';
import { createKey } from '../../src/main/engine/keys';
import { openDb, type Db } from '../../src/main/engine/store/db';
import { migrate } from '../../src/main/engine/store/migrate';
import { migrations } from '../../src/main/engine/store/migrations';
import { tempDir } from './temp';

/**
 * A real SQLite file with the schema up to the ledger (migrations below 030; 050, which moved the
 * opening grant from a trigger to the code that creates a user; 059, the upstream account; 068, metering floats) and the jobs table reduced to
 * the two columns the ledger's contract names (id, status), so ledger tests and the simulation do
 * not depend on the jobs capability's other columns.
 */
export function ledgerDb(): Db & {
  addJob(id: number, status?: string): void;
  setJob(id: number, status: string): void;
  /** A user created as `skein keys create` creates one: `credits` is its opening balance (default 100,000). */
  addUser(name: string, credits?: number): number;
} {
  const db = openDb(join(tempDir(), 'ledger.db'));
  migrate(db, migrations.filter((m) => m.id < 30 || m.id === 50 || m.id === 59 || m.id === 68));
  db.exec(`CREATE TABLE jobs (id INTEGER PRIMARY KEY, status TEXT NOT NULL CHECK (status IN ('pending','processing','success','error')))`);
  const keys = { db, ids: new SeededIds('ledger-db'), clock: new ManualClock(0) };
  return Object.assign(db, {
    addJob(id: number, status = 'pending') {
      db.prepare('INSERT INTO jobs (id, status) VALUES (?, ?)').run(id, status);
    },
    setJob(id: number, status: string) {
      db.prepare('UPDATE jobs SET status = ? WHERE id = ?').run(status, id);
    },
    addUser(name: string, credits?: number) {
      return createKey(keys, name, { credits }).user.id;
    },
  });
}
