import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { openDb, type Db } from '../../src/main/engine/store/db';
import { migrate, MigrationError } from '../../src/main/engine/store/migrate';
import { migrations, type Migration } from '../../src/main/engine/store/migrations';
import { tempDir } from '../helpers/temp';

const fresh = (): Db => openDb(join(tempDir(), 'skein.db'));
const tables = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't_%' ORDER BY name").pluck().all();
const recorded = (db: Db) => db.prepare('SELECT id, name FROM schema_migrations ORDER BY id').all();

const m1: Migration = { id: 1, name: '001_a', sql: 'CREATE TABLE t_a (x INTEGER);' };
const m2: Migration = { id: 2, name: '002_b', sql: 'CREATE TABLE t_b (x INTEGER);' };
const m3: Migration = { id: 3, name: '003_c', sql: 'CREATE TABLE t_c (x INTEGER);' };

describe('migration runner', () => {
  it('applies every bundled migration once, in order, with foreign keys on and WAL', () => {
    const db = fresh();
    expect(migrate(db).applied).toEqual(migrations.map((m) => m.id));
    expect(migrate(db).applied).toEqual([]);
    expect(recorded(db)).toEqual(migrations.map((m) => ({ id: m.id, name: m.name })));
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('applies only the new ones on a database that has the earlier ones', () => {
    const db = fresh();
    migrate(db, [m1]);
    expect(migrate(db, [m1, m2, m3]).applied).toEqual([2, 3]);
    expect(tables(db)).toEqual(['t_a', 't_b', 't_c']);
  });

  it('refuses a database that records a migration this build does not know', () => {
    const db = fresh();
    migrate(db, [m1, m2]);
    expect(() => migrate(db, [m1])).toThrow(MigrationError);
    expect(() => migrate(db, [m1])).toThrow(/migration 2 \(002_b\), which this version of Skein does not know/);
  });

  it('refuses out-of-order or renamed records instead of guessing', () => {
    const db = fresh();
    migrate(db, [m1, m3]);
    expect(() => migrate(db, [m1, m2, m3])).toThrow(/out of order: found 3 \(003_c\) where 2 \(002_b\) belongs/);
    expect(tables(db)).toEqual(['t_a', 't_c']);
    expect(() => migrate(fresh(), [m1, { ...m2, id: 1 }])).toThrow(/Two migrations are numbered 1/);
  });

  it('leaves nothing half-applied when a migration fails', () => {
    const db = fresh();
    const broken: Migration = { id: 2, name: '002_broken', sql: 'CREATE TABLE t_half (x INTEGER); INSERT INTO t_missing VALUES (1);' };
    expect(() => migrate(db, [m1, broken, m3])).toThrow(/no such table: t_missing/);
    expect(tables(db)).toEqual(['t_a']);
    expect(recorded(db)).toEqual([{ id: 1, name: '001_a' }]);
    // Fixed, it applies on the next start.
    expect(migrate(db, [m1, { ...broken, sql: 'CREATE TABLE t_half (x INTEGER);' }, m3]).applied).toEqual([2, 3]);
  });

  it('stops the engine start with the clear message and closes the file', () => {
    const dir = tempDir();
    const db = openDb(join(dir, 'skein.db'));
    migrate(db);
    db.prepare('INSERT INTO schema_migrations (id, name, applied_at_ms) VALUES (999, ?, 0)').run('999_from_the_future');
    db.close();
    expect(() => createEngine({ dataDir: dir })).toThrow(/999 \(999_from_the_future\).*newer Skein/);
  });
});
