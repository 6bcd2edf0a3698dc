import type { Db } from '../store/db';
import { fail } from '../errors';
import { forgetCachedConfig } from './config-cache';

// The upstream source's settings, one row in upstream_config (migration 053). Never the API key:
// that comes from a KeySource (key-source.ts) each time it is needed.

export const PROFILES = ['socialdata', 'spec'] as const;
export type UpstreamProfile = (typeof PROFILES)[number];
export const MODES = ['offline', 'cache-first', 'refresh'] as const;
export type UpstreamMode = (typeof MODES)[number];
export type KeyStatus = 'unknown' | 'valid' | 'invalid';
/** What a stored copy is, for how long it counts as fresh in 'cache-first' mode (migration 054). */
export const FRESH_KINDS = ['post', 'page', 'user', 'article', 'space'] as const;
export type FreshKind = (typeof FRESH_KINDS)[number];
export type Freshness = Record<FreshKind, number>;
/** A year: a longer freshness is a typo, and "never refetch" is what offline mode is for. */
export const MAX_FRESH_MS = 365 * 86_400_000;

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
  /** When the budget was last set: it counts the spending since. */
  budgetSetAtMs: number | null;
  pricePerItemUsd: number;
  /** How long a stored copy of each kind counts as fresh, in ms. */
  freshMs: Freshness;
  /** A job whose upstream estimate passes this many items asks the app's user first. */
  confirmOverItems: number;
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
  /** Only the kinds given change; the others keep their stored (or default) value. */
  freshMs?: Partial<Freshness>;
  confirmOverItems?: number;
}

interface Row {
  url: string;
  profile: UpstreamProfile;
  mode: UpstreamMode;
  per_minute: number;
  budget_items: number | null;
  budget_set_at_ms: number | null;
  price_per_item_usd: number;
  fresh_post_ms: number;
  fresh_page_ms: number;
  fresh_user_ms: number;
  fresh_article_ms: number;
  fresh_space_ms: number;
  confirm_over_items: number;
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

function validated(settings: UpstreamSettings) {
  const url = normalizeUpstreamUrl(settings.url);
  if (!(PROFILES as readonly string[]).includes(settings.profile)) throw fail.invalid('profile', `use ${PROFILES.join(' or ')}.`);
  const mode = settings.mode ?? 'cache-first';
  if (!(MODES as readonly string[]).includes(mode)) throw fail.invalid('mode', `use ${MODES.join(', ')}.`);
  const perMinute = settings.perMinute ?? DEFAULT_PER_MINUTE;
  if (!Number.isSafeInteger(perMinute) || perMinute < 1 || perMinute > MAX_PER_MINUTE) throw fail.invalid('per_minute', `a whole number from 1 to ${MAX_PER_MINUTE}.`);
  const budgetItems = settings.budgetItems ?? null;
  if (budgetItems !== null && (!Number.isSafeInteger(budgetItems) || budgetItems < 0)) throw fail.invalid('budget', 'a whole number of items, 0 or more.');
  for (const [kind, ms] of Object.entries(settings.freshMs ?? {})) {
    if (!(FRESH_KINDS as readonly string[]).includes(kind)) throw fail.invalid('fresh', `'${kind}' is not a kind; use ${FRESH_KINDS.join(', ')}.`);
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_FRESH_MS) throw fail.invalid('fresh', `${kind}: a duration from 0 to 365 days.`);
  }
  const confirm = settings.confirmOverItems;
  if (confirm !== undefined && (!Number.isSafeInteger(confirm) || confirm < 0)) throw fail.invalid('confirm_over', 'a whole number of items, 0 or more.');
  return { url, profile: settings.profile as UpstreamProfile, mode: mode as UpstreamMode, perMinute, budgetItems };
}

/**
 * Sets the upstream (replacing any). A changed URL or profile may mean another key, so the key
 * status starts over at 'unknown'; otherwise what we knew about the key stays.
 */
export function setUpstreamConfig(db: Db, settings: UpstreamSettings, nowMs: number): UpstreamConfig {
  const v = validated(settings);
  forgetCachedConfig(db);
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
    // A budget given anew starts a new allowance; one left as it was keeps counting.
    if (old === null || old.budgetItems !== v.budgetItems) db.prepare('UPDATE upstream_config SET budget_set_at_ms = ? WHERE id = 1').run(v.budgetItems === null ? null : nowMs);
    // Freshness and the confirmation threshold: only what was given changes.
    for (const [kind, ms] of Object.entries(settings.freshMs ?? {})) {
      db.prepare(`UPDATE upstream_config SET fresh_${kind}_ms = ? WHERE id = 1`).run(ms);
    }
    if (settings.confirmOverItems !== undefined) db.prepare('UPDATE upstream_config SET confirm_over_items = ? WHERE id = 1').run(settings.confirmOverItems);
    // IMMEDIATE: it reads the old settings and then writes, so the lock is taken before the read
    // (a deferred one fails with SQLITE_BUSY, unretried, when another connection writes between).
  }).immediate();
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
    budgetSetAtMs: row.budget_set_at_ms,
    pricePerItemUsd: row.price_per_item_usd,
    freshMs: { post: row.fresh_post_ms, page: row.fresh_page_ms, user: row.fresh_user_ms, article: row.fresh_article_ms, space: row.fresh_space_ms },
    confirmOverItems: row.confirm_over_items,
    keyStatus: row.key_status,
    keyCheckedAtMs: row.key_checked_at_ms,
    keyMessage: row.key_message,
    updatedAtMs: row.updated_at_ms,
  };
}

/** Removes the upstream; true when there was one. */
export function removeUpstreamConfig(db: Db): boolean {
  forgetCachedConfig(db);
  return db.prepare('DELETE FROM upstream_config WHERE id = 1').run().changes > 0;
}

/** What the last use of the key taught us; the message must already be free of the key. */
export function recordKeyStatus(db: Db, status: KeyStatus, message: string | null, nowMs: number): void {
  db.prepare('UPDATE upstream_config SET key_status = ?, key_checked_at_ms = ?, key_message = ? WHERE id = 1').run(status, nowMs, message === null ? null : message.slice(0, MAX_KEY_MESSAGE));
}
