import type { Db } from '../../store/db';
import { parseJsonExact, isRecord, stringifyExact } from './json';

export type Outcome = 'added' | 'updated' | 'unchanged';

/**
 * One column of an upserted table. `fallback` is what an insert stores when the source did not
 * give the field (undefined); on update an absent field keeps the stored value, so a source that
 * lacks a field (v1.1 has no views_count) never zeroes what a richer one stored.
 */
export interface Column {
  name: string;
  fallback: unknown;
  /** Set on insert only (conversation_id, reply_depth are derived once and relinked separately). */
  insertOnly?: boolean;
  /** A JSON object of unmodelled fields: merged key by key with the stored one, never replaced. */
  mergeJson?: boolean;
}

export interface UpsertResult {
  outcome: Outcome;
  /** Names of the columns whose stored value changed (all of them on insert). */
  changed: string[];
}

type Row = Record<string, unknown>;

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  return String(a) === String(b);
}

/**
 * Unmodelled fields, merged key by key. The stored key order is kept (a copy with the same keys in
 * another order must not count as a change, or re-imports would never settle); `incomingWins`
 * says whose value a key present in both keeps.
 */
function mergeRaw(stored: unknown, incoming: unknown, incomingWins: boolean): string | null {
  const s = typeof stored === 'string' ? parseJsonExact(stored) : null;
  const n = typeof incoming === 'string' ? parseJsonExact(incoming) : null;
  if (!isRecord(s)) return typeof incoming === 'string' ? incoming : null;
  if (!isRecord(n)) return stored as string;
  const out: Record<string, unknown> = { ...s };
  for (const [k, v] of Object.entries(n)) if (incomingWins || !(k in out)) out[k] = v;
  return stringifyExact(out);
}

export interface UpsertOptions {
  /**
   * A 0/1 column that is 1 on a stand-in row (a user known only by id). A stand-in never changes
   * a full row, whatever its retrieval time; a full row replaces a stored stand-in as if the key
   * were new, whatever the stand-in's time (a stand-in is never "newer" than real data). Between
   * two rows of the same kind, latest retrieval wins as usual.
   */
  standIn?: string;
}

/**
 * "Latest retrieval wins" for one table keyed by `key`: an unknown key is inserted; a known one is
 * updated only when the incoming retrieval is newer than the stored one and some value differs.
 * An older retrieval changes nothing except adding raw fields the stored row lacks. Statements are
 * prepared once per table and reused (imports call this hundreds of thousands of times).
 */
export function makeUpsert(
  db: Db,
  table: string,
  key: string,
  columns: readonly Column[],
  options: UpsertOptions = {},
): (row: Row, retrievedAtMs: number) => UpsertResult {
  const names = columns.map((c) => c.name);
  const insert = db.prepare(
    `INSERT INTO ${table} (${key}, ${names.join(', ')}, retrieved_at_ms) VALUES (@${key}, ${names.map((n) => `@${n}`).join(', ')}, @retrieved_at_ms)
     ON CONFLICT (${key}) DO NOTHING`,
  );
  const select = db.prepare(`SELECT ${names.join(', ')}, retrieved_at_ms FROM ${table} WHERE ${key} = ?`).safeIntegers(true);
  const updatable = columns.filter((c) => !c.insertOnly);
  const update = db.prepare(
    `UPDATE ${table} SET ${updatable.map((c) => `${c.name} = @${c.name}`).join(', ')}, retrieved_at_ms = @retrieved_at_ms WHERE ${key} = @${key}`,
  );
  const all = columns.map((c) => c.name);

  return (row, retrievedAtMs) => {
    const values: Row = { [key]: row[key], retrieved_at_ms: retrievedAtMs };
    for (const c of columns) values[c.name] = row[c.name] === undefined ? c.fallback : row[c.name];
    if (insert.run(values).changes === 1) return { outcome: 'added', changed: all };

    const stored = select.get(row[key]) as Row;
    const standIn = options.standIn;
    const incomingStandIn = standIn !== undefined && Number(values[standIn]) === 1;
    const storedStandIn = standIn !== undefined && Number(stored[standIn]) === 1;
    if (incomingStandIn && !storedStandIn) return { outcome: 'unchanged', changed: [] };
    const replace = storedStandIn && !incomingStandIn;
    // Strictly newer: of two copies with the same retrieval time (two lines of one file) the first
    // stays, so importing a file again finds every record unchanged.
    const newer = replace || retrievedAtMs > Number(stored.retrieved_at_ms as bigint);
    const next: Row = { [key]: row[key], retrieved_at_ms: newer ? retrievedAtMs : Number(stored.retrieved_at_ms as bigint) };
    const changed: string[] = [];
    for (const c of updatable) {
      const incoming = row[c.name];
      let value: unknown;
      if (replace) value = values[c.name];
      else if (c.mergeJson) value = incoming === undefined ? stored[c.name] : mergeRaw(stored[c.name], incoming, newer);
      else value = newer && incoming !== undefined ? incoming : stored[c.name];
      next[c.name] = value;
      if (!same(value, stored[c.name])) changed.push(c.name);
    }
    if (changed.length === 0) return { outcome: 'unchanged', changed };
    update.run(next);
    return { outcome: 'updated', changed };
  };
}

/** Prepared upserts cached per connection: one set of statements per Db for its whole life. */
export function cached<T>(cache: WeakMap<Db, T>, db: Db, make: (db: Db) => T): T {
  let v = cache.get(db);
  if (!v) {
    v = make(db);
    cache.set(db, v);
  }
  return v;
}
