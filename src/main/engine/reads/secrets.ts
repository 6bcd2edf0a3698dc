import type { Engine } from '../engine';

// 32 bytes: the HMAC-SHA256 key length (RFC 2104 recommends at least the hash's output size).
const SECRET_BYTES = 32;

/**
 * The named secret, made once. INSERT OR IGNORE then SELECT: when the app and a CLI process race
 * to make it, both end up with the one row that won.
 */
export function secret(engine: Pick<Engine, 'db' | 'ids' | 'clock'>, name: string): Buffer {
  engine.db
    .prepare('INSERT OR IGNORE INTO secrets (name, value_hex, created_at_ms) VALUES (?, ?, ?)')
    .run(name, engine.ids.randomHex(SECRET_BYTES), engine.clock.nowMs());
  const row = engine.db.prepare('SELECT value_hex FROM secrets WHERE name = ?').get(name) as { value_hex: string };
  return Buffer.from(row.value_hex, 'hex');
}
