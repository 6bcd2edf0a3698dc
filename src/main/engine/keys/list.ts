import type { Db } from '../store/db';

export interface KeyListing {
  keyId: number;
  prefix: string;
  userId: number;
  userName: string;
  builtin: boolean;
  createdAtMs: number;
  lastUsedAtMs: number | null;
  revokedAtMs: number | null;
}

export interface UserListing {
  id: number;
  name: string;
  builtin: boolean;
  perMinuteLimit: number;
  webhookUrl: string | null;
  createdAtMs: number;
  keys: KeyListing[];
}

interface Row {
  user_id: number;
  name: string;
  builtin: number;
  per_minute_limit: number;
  webhook_url: string | null;
  user_created_at_ms: number;
  key_id: number | null;
  prefix: string | null;
  created_at_ms: number | null;
  last_used_at_ms: number | null;
  revoked_at_ms: number | null;
}

/** Every api user with its keys (prefixes only: the keys themselves are not stored). */
export function listKeys(db: Db): UserListing[] {
  const rows = db
    .prepare(
      `SELECT u.id AS user_id, u.name, u.builtin, u.per_minute_limit, u.webhook_url, u.created_at_ms AS user_created_at_ms,
              k.id AS key_id, k.prefix, k.created_at_ms, k.last_used_at_ms, k.revoked_at_ms
       FROM api_users u LEFT JOIN api_keys k ON k.user_id = u.id ORDER BY u.id, k.id`,
    )
    .all() as Row[];
  const users = new Map<number, UserListing>();
  for (const r of rows) {
    let u = users.get(r.user_id);
    if (!u) {
      u = { id: r.user_id, name: r.name, builtin: r.builtin === 1, perMinuteLimit: r.per_minute_limit, webhookUrl: r.webhook_url, createdAtMs: r.user_created_at_ms, keys: [] };
      users.set(r.user_id, u);
    }
    if (r.key_id !== null) {
      u.keys.push({
        keyId: r.key_id,
        prefix: r.prefix!,
        userId: r.user_id,
        userName: r.name,
        builtin: r.builtin === 1,
        createdAtMs: r.created_at_ms!,
        lastUsedAtMs: r.last_used_at_ms,
        revokedAtMs: r.revoked_at_ms,
      });
    }
  }
  return [...users.values()];
}
