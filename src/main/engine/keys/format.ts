import { createHash } from 'node:crypto';
import type { IdSource } from '../ids';

// A key is "sk_" + 48 hex characters (24 random bytes = 192 bits: guessing one is hopeless even at
// millions of requests per second). Only its SHA-256 is stored; the first 11 characters ("sk_" and
// 8 hex) are kept as a prefix so people can tell keys apart and revoke one without the whole key.
export const KEY_PATTERN = /^sk_[0-9a-f]{48}$/;
const KEY_RANDOM_BYTES = 24;
export const PREFIX_LENGTH = 11;

export function newKey(ids: IdSource): string {
  return `sk_${ids.randomHex(KEY_RANDOM_BYTES)}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export const prefixOf = (key: string): string => key.slice(0, PREFIX_LENGTH);
