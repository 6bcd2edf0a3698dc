import type { Engine } from '../engine';
import { fail } from '../errors';
import { hashKey, KEY_PATTERN, PREFIX_LENGTH } from './format';

export interface RevokedKey {
  keyId: number;
  prefix: string;
  userName: string;
  /** False when the key had already been revoked (revoking is idempotent). */
  revokedNow: boolean;
  revokedAtMs: number;
}

interface KeyRow {
  id: number;
  prefix: string;
  revoked_at_ms: number | null;
  user_name: string;
}

const SELECT = 'SELECT k.id, k.prefix, k.revoked_at_ms, u.name AS user_name FROM api_keys k JOIN api_users u ON u.id = k.user_id';

/** Finds a key by its number (as `keys list` shows it), its prefix, or the whole key. */
function findKey(engine: Pick<Engine, 'db'>, ref: string): KeyRow {
  const { db } = engine;
  let rows: KeyRow[];
  if (/^\d{1,15}$/.test(ref)) rows = db.prepare(`${SELECT} WHERE k.id = ?`).all(Number(ref)) as KeyRow[];
  else if (KEY_PATTERN.test(ref)) rows = db.prepare(`${SELECT} WHERE k.hash = ?`).all(hashKey(ref)) as KeyRow[];
  else if (/^sk_[0-9a-f]{8}$/.test(ref) && ref.length === PREFIX_LENGTH) rows = db.prepare(`${SELECT} WHERE k.prefix = ?`).all(ref) as KeyRow[];
  else throw fail.invalid('key', "give the key's number, its prefix (sk_ and 8 hex characters) or the whole key.");
  if (rows.length === 0) throw fail.notFound(`No API key matches '${ref}'.`);
  if (rows.length > 1) throw fail.invalid('key', `prefix ${ref} matches ${rows.length} keys: give the key's number instead (skein keys list).`);
  return rows[0]!;
}

export function revokeKey(engine: Pick<Engine, 'db' | 'clock'>, ref: string): RevokedKey {
  const { db } = engine;
  return db.transaction((): RevokedKey => {
    const row = findKey(engine, ref);
    if (row.revoked_at_ms !== null) {
      return { keyId: row.id, prefix: row.prefix, userName: row.user_name, revokedNow: false, revokedAtMs: row.revoked_at_ms };
    }
    const now = engine.clock.nowMs();
    db.prepare('UPDATE api_keys SET revoked_at_ms = ? WHERE id = ?').run(now, row.id);
    return { keyId: row.id, prefix: row.prefix, userName: row.user_name, revokedNow: true, revokedAtMs: now };
  }).immediate();
}
