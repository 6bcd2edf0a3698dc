import { describe, expect, it } from 'vitest';
import { changeStamp, unchangedSince, unstamped } from '../../src/main/engine/store/change-stamp';
import { openDb } from '../../src/main/engine/store/db';
import { tempDir } from '../helpers/temp';
import { join } from 'node:path';

// A change stamp (store/change-stamp.ts) on a real SQLite file: which writes make it stale.

function setup() {
  const db = openDb(join(tempDir(), 'stamp.db'));
  db.exec('CREATE TABLE t (x INTEGER)');
  return db;
}

describe('a change stamp', () => {
  it("is stale after this connection's write", () => {
    const db = setup();
    const stamp = changeStamp(db);
    expect(unchangedSince(db, stamp)).toBe(true);
    db.prepare('INSERT INTO t VALUES (1)').run();
    expect(unchangedSince(db, stamp)).toBe(false);
    db.close();
  });

  it('holds across a write run through unstamped(), and a stamp taken after it holds too', () => {
    const db = setup();
    const stamp = changeStamp(db);
    expect(unstamped(db, () => db.prepare('INSERT INTO t VALUES (1), (2)').run().changes)).toBe(2);
    expect(unchangedSince(db, stamp)).toBe(true);
    const after = changeStamp(db);
    db.prepare('INSERT INTO t VALUES (3)').run();
    expect(unchangedSince(db, stamp)).toBe(false);
    expect(unchangedSince(db, after)).toBe(false);
    db.close();
  });

  it('counts an unstamped write that throws as unstamped too, and leaves later writes counted', () => {
    const db = setup();
    const stamp = changeStamp(db);
    expect(() =>
      unstamped(db, () => {
        db.prepare('INSERT INTO t VALUES (1)').run();
        throw new Error('after the write');
      }),
    ).toThrow('after the write');
    expect(unchangedSince(db, stamp)).toBe(true);
    db.prepare('DELETE FROM t').run();
    expect(unchangedSince(db, stamp)).toBe(false);
    db.close();
  });
});
