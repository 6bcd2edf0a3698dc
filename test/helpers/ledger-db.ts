import { join } from 'node:path';
import { openDb, type Db } from '../../src/main/engine/store/db';
import { migrate } from '../../src/main/engine/store/migrate';
import { migrations } from '../../src/main/engine/store/migrations';
import { tempDir } from './temp';

/**
 * A real SQLite file with the schema up to the ledger (migrations below 030) and the jobs table
 * reduced to the two columns the ledger's contract names (id, status), so ledger tests and the
 * simulation do not depend on the jobs capability's other columns.
 */
export function ledgerDb(): Db & { addJob(id: number, status?: string): void; setJob(id: number, status: string): void; addUser(name: string): number } {
  const db = openDb(join(tempDir(), 'ledger.db'));
  migrate(db, migrations.filter((m) => m.id < 30));
  db.exec(`CREATE TABLE jobs (id INTEGER PRIMARY KEY, status TEXT NOT NULL CHECK (status IN ('pending','processing','success','error')))`);
  return Object.assign(db, {
    addJob(id: number, status = 'pending') {
      db.prepare('INSERT INTO jobs (id, status) VALUES (?, ?)').run(id, status);
    },
    setJob(id: number, status: string) {
      db.prepare('UPDATE jobs SET status = ? WHERE id = ?').run(status, id);
    },
    addUser(name: string) {
      return Number(db.prepare('INSERT INTO api_users (name, created_at_ms) VALUES (?, 0)').run(name).lastInsertRowid);
    },
  });
}
