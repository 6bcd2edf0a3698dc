import type { Db } from '../store/db';
import { fail } from '../errors';

// The upstream source's settings, one row in upstream_config (migration 053). Never the API key:
// that comes from a KeySource (key-source.ts) each time it is needed.

export const PROFILES = ['socialdata', 'spec'] as const;
export type UpstreamProfile = (typeof PROFILES)[number];
export const MODES = ['offline', 'cache-first', 'refresh'] as const;
export type UpstreamMode = (typeof MODES)[number];
export type KeyStatus = 'unknown' | 'valid' | 'invalid';

/** The real service's published limit and price (docs.socialdata.tools). */
export const DEFAULT_PER_MINUTE = 120;
export const DEFAULT_PRICE_PER_ITEM_USD = 0.0002;
export const MAX_PER_MINUTE = 100_000;
const MAX_URL_LENGTH = 2_048;
const MAX_KEY_MESSAGE = 300;

export interface UpstreamConfig {
  url: string;
  profile: UpstreamProfile;
  mode: UpstreamMode;
  perMinute: number;
  budgetItems: number | null;
  pricePerItemUsd: number;
  keyStatus: KeyStatus;
  keyCheckedAtMs: number | null;
  keyMessage: string | null;
  updatedAtMs: number;
}

export interface UpstreamSettings {
  url: string;
  profile: string;
  mode?: string;
  perMinute?: number;
  budgetItems?: number | null;
}

interface Row {
  url: string;
  profile: UpstreamProfile;
  mode: UpstreamMode;
  per_minute: number;
  budget_items: number | null;
  price_per_item_usd: number;
  key_status: KeyStatus;
  key_checked_at_ms: number | null;
  key_message: string | null;
  updated_at_ms: number;
}

/**
 * The base URL as kept: http(s), absolute, no user:password (a key belongs in the keychain, not in
 * a URL that `upstream show` prints), no query or fragment; a trailing slash is dropped so paths join.
 */
export function normalizeUpstreamUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail.invalid('url', 'give an absolute URL such as https://api.socialdata.tools.');
  }
  if (raw.length > MAX_URL_LENGTH) throw fail.invalid('url', `at most ${MAX_URL_LENGTH} characters.`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail.invalid('url', 'only http and https URLs are supported.');
  if (url.username || url.password) throw fail.invalid('url', 'a URL with a user name or password is refused: the key is given apart (stdin or SKEIN_UPSTREAM_KEY).');
  if (url.search || url.hash) throw fail.invalid('url', 'give the base URL only, without a query or fragment.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function validated(settings: UpstreamSettings): { url: string; profile: UpstreamProfile; mode: UpstreamMode; perMinute: number; budgetItems: number | null } {
  const url = normalizeUpstreamUrl(settings.url);
  if (!(PROFILES as readonly string[]).includes(settings.profile)) throw fail.invalid('profile', `use ${PROFILES.join(' or ')}.`);
  const mode = settings.mode ?? 'cache-first';
  if (!(MODES as readonly string[]).includes(mode)) throw fail.invalid('mode', `use ${MODES.join(', ')}.`);
  const perMinute = settings.perMinute ?? DEFAULT_PER_MINUTE;
  if (!Number.isSafeInteger(perMinute) || perMinute < 1 || perMinute > MAX_PER_MINUTE) throw fail.invalid('per_minute', `a whole number from 1 to ${MAX_PER_MINUTE}.`);
  const budgetItems = settings.budgetItems ?? null;
  if (budgetItems !== null && (!Number.isSafeInteger(budgetItems) || budgetItems < 0)) throw fail.invalid('budget', 'a whole number of items, 0 or more.');
  return { url, profile: settings.profile as UpstreamProfile, mode: mode as UpstreamMode, perMinute, budgetItems };
}

/**
 * Sets the upstream (replacing any). A changed URL or profile may mean another key, so the key
 * status starts over at 'unknown'; otherwise what we knew about the key stays.
 */
export function setUpstreamConfig(db: Db, settings: UpstreamSettings, nowMs: number): UpstreamConfig {
  const v = validated(settings);
  db.transaction(() => {
    const old = getUpstreamConfig(db);
    const sameSource = old !== null && old.url === v.url && old.profile === v.profile;
    db.prepare(
      `INSERT INTO upstream_config (id, url, profile, mode, per_minute, budget_items, key_status, key_checked_at_ms, key_message, updated_at_ms)
       VALUES (1, @url, @profile, @mode, @perMinute, @budgetItems, 'unknown', NULL, NULL, @nowMs)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, profile = excluded.profile, mode = excluded.mode,
         per_minute = excluded.per_minute, budget_items = excluded.budget_items, updated_at_ms = excluded.updated_at_ms,
         key_status = CASE WHEN @same THEN key_status ELSE 'unknown' END,
         key_checked_at_ms = CASE WHEN @same THEN key_checked_at_ms ELSE NULL END,
         key_message = CASE WHEN @same THEN key_message ELSE NULL END`,
    ).run({ ...v, nowMs, same: sameSource ? 1 : 0 });
  })();
  return getUpstreamConfig(db)!;
}

export function getUpstreamConfig(db: Db): UpstreamConfig | null {
  const row = db.prepare('SELECT * FROM upstream_config WHERE id = 1').get() as Row | undefined;
  if (!row) return null;
  return {
    url: row.url,
    profile: row.profile,
    mode: row.mode,
    perMinute: row.per_minute,
    budgetItems: row.budget_items,
    pricePerItemUsd: row.price_per_item_usd,
    keyStatus: row.key_status,
    keyCheckedAtMs: row.key_checked_at_ms,
    keyMessage: row.key_message,
    updatedAtMs: row.updated_at_ms,
  };
}

/** Removes the upstream; true when there was one. */
export function removeUpstreamConfig(db: Db): boolean {
  return db.prepare('DELETE FROM upstream_config WHERE id = 1').run().changes > 0;
}

/** What the last use of the key taught us; the message must already be free of the key. */
export function recordKeyStatus(db: Db, status: KeyStatus, message: string | null, nowMs: number): void {
  db.prepare('UPDATE upstream_config SET key_status = ?, key_checked_at_ms = ?, key_message = ? WHERE id = 1').run(status, nowMs, message === null ? null : message.slice(0, MAX_KEY_MESSAGE));
}
