import type { Engine } from '../engine';
import { hashKey, newKey, prefixOf } from './format';
import { type ApiUserRow, checkUserName, findUserByName } from './users';

export interface CreatedKey {
  user: { id: number; name: string; created: boolean };
  /** The key itself: shown once, never stored. */
  key: string;
  keyId: number;
  prefix: string;
}

/**
 * Creates the api user `name` (the spec's "per user") if it does not exist, and a new key for it,
 * in one transaction. The key is returned once; the store keeps only its SHA-256.
 */
export function createKey(engine: Pick<Engine, 'db' | 'ids' | 'clock'>, nameRaw: unknown): CreatedKey {
  const name = checkUserName(nameRaw);
  const { db } = engine;
  return db.transaction((): CreatedKey => {
    const now = engine.clock.nowMs();
    let user: ApiUserRow | undefined = findUserByName(db, name);
    const created = !user;
    if (!user) {
      db.prepare('INSERT INTO api_users (name, created_at_ms) VALUES (?, ?)').run(name, now);
      user = findUserByName(db, name)!;
    }
    const key = newKey(engine.ids);
    const info = db
      .prepare('INSERT INTO api_keys (user_id, prefix, hash, created_at_ms) VALUES (?, ?, ?, ?)')
      .run(user.id, prefixOf(key), hashKey(key), now);
    return { user: { id: user.id, name: user.name, created }, key, keyId: Number(info.lastInsertRowid), prefix: prefixOf(key) };
  }).immediate();
}
