import type { Db } from '../store/db';
import { fail } from '../errors';

export interface ApiUserRow {
  id: number;
  name: string;
  builtin: number;
  per_minute_limit: number;
  webhook_url: string | null;
  created_at_ms: number;
}

// A name people type on the command line and read in lists: 1 to 64 visible characters.
const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}$/;

export function checkUserName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name) || name.trim() !== name) {
    throw fail.invalid('name', 'use 1 to 64 letters, digits, spaces, or . _ @ -, starting with a letter or digit.');
  }
  return name;
}

export function findUserByName(db: Db, name: string): ApiUserRow | undefined {
  return db.prepare('SELECT * FROM api_users WHERE name = ?').get(name) as ApiUserRow | undefined;
}

export function findUserById(db: Db, id: number): ApiUserRow | undefined {
  return db.prepare('SELECT * FROM api_users WHERE id = ?').get(id) as ApiUserRow | undefined;
}
