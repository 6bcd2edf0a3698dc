import type { Engine } from '../engine';
import { fail } from '../errors';
import { openingGrant } from '../ledger';
import { hashKey, newKey, prefixOf } from './format';
import { type ApiUserRow, checkUserName, findUserByName } from './users';

/**
 * What a new api user starts with when no amount is given: 5,000 timeline pages, so a first key
 * works at once (docs/decisions.md "Credits: prices, opening balance, what is charged when").
 */
export const DEFAULT_OPENING_CREDITS = 100_000;
/** The most a new user can start with; 'skein credits grant' adds more later. */
export const MAX_OPENING_CREDITS = 1_000_000_000;

export interface CreatedKey {
  user: { id: number; name: string; created: boolean };
  /** The key itself: shown once, never stored. */
  key: string;
  keyId: number;
  prefix: string;
  /** The opening balance granted with this key: 0 when the user existed already. */
  openingCredits: number;
}

export interface CreateKeyOptions {
  /**
   * The new user's starting balance, exactly (0 allowed); DEFAULT_OPENING_CREDITS when left out.
   * Only for a user this call creates: given for an existing user it is refused, because neither
   * reading it as a top-up nor dropping it would leave the balance the caller asked for.
   */
  credits?: number;
}

/**
 * Creates the api user `name` (the spec's "per user") with its opening balance if it does not
 * exist, and a new key for it, in one transaction. The key is returned once; the store keeps only
 * its SHA-256.
 */
export function createKey(engine: Pick<Engine, 'db' | 'ids' | 'clock'>, nameRaw: unknown, options: CreateKeyOptions = {}): CreatedKey {
  const name = checkUserName(nameRaw);
  const credits = checkCredits(options.credits);
  const { db } = engine;
  return db.transaction((): CreatedKey => {
    const now = engine.clock.nowMs();
    let user: ApiUserRow | undefined = findUserByName(db, name);
    const created = !user;
    let openingCredits = 0;
    if (user && credits !== undefined) {
      throw fail.invalid(
        'credits',
        `user '${user.name}' exists already, and starting credits are only for a new user: its balance stays as it is. ` +
          "Leave them out to add a key; add credits in the app's settings or with 'skein credits grant'.",
      );
    }
    if (!user) {
      db.prepare('INSERT INTO api_users (name, created_at_ms) VALUES (?, ?)').run(name, now);
      user = findUserByName(db, name)!;
      openingCredits = credits ?? DEFAULT_OPENING_CREDITS;
      openingGrant(db, { userId: user.id, amount: openingCredits, nowMs: now });
    }
    const key = newKey(engine.ids);
    const info = db
      .prepare('INSERT INTO api_keys (user_id, prefix, hash, created_at_ms) VALUES (?, ?, ?, ?)')
      .run(user.id, prefixOf(key), hashKey(key), now);
    return { user: { id: user.id, name: user.name, created }, key, keyId: Number(info.lastInsertRowid), prefix: prefixOf(key), openingCredits };
  }).immediate();
}

function checkCredits(credits: unknown): number | undefined {
  if (credits === undefined) return undefined;
  if (typeof credits !== 'number' || !Number.isSafeInteger(credits) || credits < 0 || credits > MAX_OPENING_CREDITS) {
    throw fail.invalid('credits', `starting credits are a whole number from 0 to ${MAX_OPENING_CREDITS}, not ${String(credits)}.`);
  }
  return credits;
}
