import type { Db } from './db';
import { migrations as bundled, type Migration } from './migrations';

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Applies the numbered migrations in order, each in its own transaction together with its row in
 * schema_migrations, so a failure leaves nothing half-applied. A database that records a
 * migration this build does not know (a newer Skein wrote it) or whose record has a gap stops the
 * start with a clear message rather than guessing.
 */
export function migrate(db: Db, migrations: readonly Migration[] = bundled): { applied: number[] } {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)`);
  const known = [...migrations].sort((a, b) => a.id - b.id);
  known.forEach((m, i) => {
    if (i > 0 && known[i - 1]!.id === m.id) throw new MigrationError(`Two migrations are numbered ${m.id}.`);
  });
  const done = db.prepare('SELECT id, name FROM schema_migrations ORDER BY id').all() as { id: number; name: string }[];
  done.forEach((row, i) => {
    const expected = known[i];
    if (!expected) {
      throw new MigrationError(
        `The database has migration ${row.id} (${row.name}), which this version of Skein does not know. ` +
          'It was written by a newer Skein: update the app, or use another data dir.',
      );
    }
    if (expected.id !== row.id || expected.name !== row.name) {
      throw new MigrationError(
        `Migration records are out of order: found ${row.id} (${row.name}) where ${expected.id} (${expected.name}) belongs.`,
      );
    }
  });
  const applied: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (id, name, applied_at_ms) VALUES (?, ?, ?)');
  for (const m of known.slice(done.length)) {
    // PRAGMA foreign_keys is a no-op inside a transaction: it is switched around it.
    const keysWereOn = m.foreignKeysOff ? db.pragma('foreign_keys', { simple: true }) === 1 : false;
    if (keysWereOn) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        if (m.foreignKeysOff) {
          const broken = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
          if (broken.length) {
            const first = broken[0]!;
            throw new MigrationError(`Migration ${m.name} would leave ${broken.length} broken references (first: ${first.table} row ${first.rowid} -> ${first.parent}).`);
          }
        }
        record.run(m.id, m.name, Date.now());
      })();
    } finally {
      if (keysWereOn) db.pragma('foreign_keys = ON');
    }
    applied.push(m.id);
  }
  return { applied };
}
