import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';

// Compiling a statement costs more than running it on this schema (the corpus's FTS tables make
// each prepare ~25-40 µs; a request runs about 8), so the ledger's statements are compiled once
// per connection.
const cache = new WeakMap<Db, Map<string, Statement>>();

export function prep(db: Db, sql: string): Statement {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  let s = perDb.get(sql);
  if (!s) perDb.set(sql, (s = db.prepare(sql)));
  return s;
}
