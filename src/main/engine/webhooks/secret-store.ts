import { SkeinError, fail } from '../errors';
import type { IdSource } from '../ids';
import type { Db } from '../store/db';
import { withoutWaiting } from '../store/without-waiting';

// Where a user's webhook signing secret lives (issue 13 point 13): in the OS keychain where one
// answers (service "Skein", account `webhook-secret-<user id>-<16 hex>`), the database keeping only
// that account's name (api_users.webhook_secret_ref, migration 063); in the database itself
// (api_users.webhook_secret) only where no keychain answers. The engine never imports the keychain
// (src/main/platform): the shells pass it in as a SecretKeeper.

/** The OS keychain as the engine uses it: platform/keychain.ts's Keychain has this shape. */
export interface SecretKeeper {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

export type SecretPlace = 'keychain' | 'database';

/** What the engine needs to keep or read a secret: the database, randomness for names, the keychain (null: none answers). */
export interface SecretContext {
  readonly db: Db;
  readonly ids: IdSource;
  readonly keychain: SecretKeeper | null;
}

// 16: below that an HMAC key is guessable offline from one signed body. 256: a secret is typed or
// pasted; longer is a file pasted by mistake (and HMAC-SHA256 hashes keys over 64 bytes anyway).
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
export const WEBHOOK_SECRET_MAX_LENGTH = 256;

/** The two columns that say where a user's secret is. */
export interface SecretColumns {
  webhook_secret: string | null;
  webhook_secret_ref: string | null;
}

export function placeOf(columns: SecretColumns): SecretPlace | null {
  return columns.webhook_secret_ref !== null ? 'keychain' : columns.webhook_secret !== null ? 'database' : null;
}

/** A secret as given (CLI, PUT /webhooks, Settings): refused with a reason unless it can sign. */
export function checkWebhookSecret(raw: unknown): string {
  if (typeof raw !== 'string') throw fail.invalid('secret', 'expected text (null removes the secret).');
  if (raw === '') {
    throw fail.invalid('secret', `it is empty. A secret is ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} characters; to remove it send null (skein webhooks set --no-secret).`);
  }
  // A line break is nearly always a file's last newline pasted along: the receiver would sign without it.
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw fail.invalid('secret', 'it holds a line break or another control character; give printable characters only.');
  if (raw.length < WEBHOOK_SECRET_MIN_LENGTH || raw.length > WEBHOOK_SECRET_MAX_LENGTH) {
    throw fail.invalid('secret', `from ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} characters (this one has ${raw.length}).`);
  }
  return raw;
}

export function secretColumnsOf(db: Db, userId: number): SecretColumns {
  const row = db.prepare('SELECT webhook_secret, webhook_secret_ref FROM api_users WHERE id = ?').get(userId) as SecretColumns | undefined;
  if (!row) throw fail.notFound(`User ${userId} was not found.`);
  return row;
}

/**
 * Puts `secret` where it belongs and answers the columns that say so; nothing is written to the
 * database here (the caller writes them with the URL, in one statement). A user whose secret is in
 * the keychain keeps the same entry, overwritten, so no entry is left behind.
 */
export async function placeSecret(ctx: SecretContext, userId: number, before: SecretColumns, secret: string | null): Promise<SecretColumns> {
  if (secret === null) return { webhook_secret: null, webhook_secret_ref: null };
  if (!ctx.keychain) return { webhook_secret: secret, webhook_secret_ref: null };
  const account = before.webhook_secret_ref ?? newAccount(ctx.ids, userId);
  try {
    await ctx.keychain.set(account, secret);
  } catch (err) {
    throw keychainRefused(err);
  }
  return { webhook_secret: null, webhook_secret_ref: account };
}

/** Deletes the keychain entry `before` named when `after` no longer uses it (the secret removed). */
export async function forgetReplaced(ctx: SecretContext, before: SecretColumns, after: SecretColumns): Promise<void> {
  if (!before.webhook_secret_ref || before.webhook_secret_ref === after.webhook_secret_ref || !ctx.keychain) return;
  // An entry the keychain will not delete now only lingers there: it signs nothing any more.
  await ctx.keychain.delete(before.webhook_secret_ref).catch(() => false);
}

/**
 * Writes secret columns so that a plain-text secret they replace leaves no copy in the file: with
 * secure_delete the old bytes of the row are overwritten with zeros in its page, and a checkpoint
 * that truncates the WAL drops the copies the journal held. The checkpoint is best effort: a reader
 * in another process (a CLI command at that moment) makes it stop short, and the -wal file keeps
 * its old frames until its next truncation.
 */
export function writeOverwriting<T>(db: Db, hadPlainSecret: boolean, write: () => T): T {
  if (!hadPlainSecret) return write();
  const was = db.pragma('secure_delete', { simple: true }) as number;
  db.pragma('secure_delete = ON');
  let result: T;
  try {
    result = write();
  } finally {
    db.pragma(`secure_delete = ${was}`);
  }
  // Without waiting: with the 5 s busy timeout a job's worker reading at that moment would hold the
  // main thread (and every request) for 5 s.
  try {
    withoutWaiting(db, () => db.pragma('wal_checkpoint(TRUNCATE)'));
  } catch {
    // The write is made; a checkpoint a full disk refuses leaves only the journal's copy, for now.
  }
  return result;
}

export type SecretLookup = { ok: true; secret: string | null } | { ok: false; why: string };

/** The secret a delivery is signed with, from wherever it lives; never throws. */
export async function readSecret(keychain: SecretKeeper | null, columns: SecretColumns): Promise<SecretLookup> {
  const account = columns.webhook_secret_ref;
  if (account === null) return { ok: true, secret: columns.webhook_secret };
  if (!keychain) return { ok: false, why: 'its signing secret is kept in the OS keychain, and no keychain answers in this Skein process (a Secret Service must run, unlocked, in its session)' };
  try {
    const secret = await keychain.get(account);
    if (secret) return { ok: true, secret };
    return { ok: false, why: `its signing secret is no longer in the OS keychain (entry "Skein" / "${account}"): set it again with 'skein webhooks set --secret'` };
  } catch (err) {
    return { ok: false, why: `the OS keychain did not give its signing secret (${firstLine(err)})` };
  }
}

export interface MovedSecrets {
  moved: number;
  /** Why the rest stayed in the database (the keychain refused a write), or null. */
  error: string | null;
}

/**
 * Moves every secret kept in the database into the keychain (at the start of `skein serve` and the
 * desktop app, where one answers): secrets set where none answered, or before migration 063. Each
 * user's entry is written, then the row switched to it, the plain text overwritten in place.
 */
export async function moveSecretsToKeychain(ctx: SecretContext): Promise<MovedSecrets> {
  const keychain = ctx.keychain;
  if (!keychain) return { moved: 0, error: null };
  const rows = ctx.db.prepare('SELECT id, webhook_secret FROM api_users WHERE webhook_secret IS NOT NULL ORDER BY id').all() as { id: number; webhook_secret: string }[];
  let moved = 0;
  const switchRow = ctx.db.prepare('UPDATE api_users SET webhook_secret = NULL, webhook_secret_ref = ? WHERE id = ? AND webhook_secret = ?');
  for (const row of rows) {
    const account = newAccount(ctx.ids, row.id);
    try {
      await keychain.set(account, row.webhook_secret);
    } catch (err) {
      return { moved, error: keychainRefused(err).message };
    }
    let changed: number;
    try {
      changed = writeOverwriting(ctx.db, true, () => switchRow.run(account, row.id, row.webhook_secret).changes);
    } catch (err) {
      // A full disk: the row still holds the secret and signs with it; the next start tries again.
      await keychain.delete(account).catch(() => false);
      return { moved, error: `the database could not record the move (${firstLine(err)}); the next start tries again.` };
    }
    // Another process may have changed the secret meanwhile: then that one stands, and the copy goes.
    if (changed === 1) moved += 1;
    else await keychain.delete(account).catch(() => false);
  }
  return { moved, error: null };
}

function newAccount(ids: IdSource, userId: number): string {
  // Random, not the data dir's path: a moved or renamed data dir still finds its secrets. Within
  // the keychain adapter's account names (letters, digits, '-', at most 64 characters).
  return `webhook-secret-${userId}-${ids.randomHex(8)}`;
}

function keychainRefused(err: unknown): SkeinError {
  return new SkeinError('internal', `The OS keychain refused the webhook secret (${firstLine(err)}); nothing was changed. Unlock the keychain and try again.`);
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 300);
}

/** What a start says about a move (nothing when nothing moved): once, since a moved secret is not moved again. */
export function movedSecretsLine(result: MovedSecrets): string | null {
  const moved =
    result.moved > 0
      ? `Moved ${result.moved} webhook signing ${result.moved === 1 ? 'secret' : 'secrets'} from the database to the OS keychain; the database now keeps only where ${result.moved === 1 ? 'it is' : 'they are'}.`
      : '';
  const stayed = result.error ? `Webhook signing secrets in the database stay there: ${result.error}` : '';
  return [moved, stayed].filter(Boolean).join(' ') || null;
}
