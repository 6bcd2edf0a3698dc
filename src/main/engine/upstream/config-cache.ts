import type { Db } from '../store/db';
import type { UpstreamConfig } from './config';

// The configuration is read on every API request; one SELECT per request is measurable on the
// hottest reads (bench/api), so gateway.ts keeps it for CONFIG_TTL_MS. Changes made in this
// process clear it at once (config.ts); another process's `skein upstream set` applies within 1 s.
export const CONFIG_TTL_MS = 1_000;
export const configCache = new WeakMap<Db, { config: UpstreamConfig | null; atMs: number }>();

export function forgetCachedConfig(db: Db): void {
  configCache.delete(db);
}
