import { fail } from '../errors';
import type { Db } from '../store/db';
import { whenWriteFree } from '../store/when-write-free';
import {
  checkWebhookSecret, forgetReplaced, placeOf, placeSecret, secretColumnsOf, writeOverwriting, type SecretColumns, type SecretContext, type SecretPlace,
} from './secret-store';

/** The longest webhook URL accepted (a URL longer than this is a mistake, not an endpoint). */
const MAX_URL_LENGTH = 2048;

/** http(s) only, absolute, no credentials in it (they would be stored and shown in clear). */
export function checkWebhookUrl(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw fail.missing('url');
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH) throw fail.invalid('url', `at most ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail.invalid('url', `'${text.slice(0, 80)}' is not an absolute URL (e.g. https://example.org/hook).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail.invalid('url', 'only http and https URLs can receive webhooks.');
  if (url.username || url.password) throw fail.invalid('url', 'put no user name or password in the URL; use --secret for authentication.');
  return url.toString();
}

export interface WebhookSettings {
  url: string | null;
  hasSecret: boolean;
  /** Where the signing secret is kept: the OS keychain, or (where none answers) the database; null without one. */
  secretKeptIn: SecretPlace | null;
}

export function webhookSettings(db: Db, userId: number): WebhookSettings {
  const row = db.prepare('SELECT webhook_url, webhook_secret, webhook_secret_ref FROM api_users WHERE id = ?').get(userId) as
    | ({ webhook_url: string | null } & SecretColumns)
    | undefined;
  if (!row) throw fail.notFound(`User ${userId} was not found.`);
  const place = placeOf(row);
  return { url: row.webhook_url, hasSecret: place !== null, secretKeptIn: place };
}

/**
 * Sets (url) or clears (null) a user's webhook; `secret` undefined keeps the current one, null
 * removes it. Everything given is checked before anything is written; a secret goes to the
 * keychain when one answers (secret-store.ts), else to the database.
 */
export async function setWebhook(ctx: SecretContext, userId: number, url: string | null, secret?: string | null): Promise<WebhookSettings> {
  const checked = url === null ? null : checkWebhookUrl(url);
  const given = secret === undefined || secret === null ? secret : checkWebhookSecret(secret);
  const before = secretColumnsOf(ctx.db, userId);
  const after = given === undefined ? before : await placeSecret(ctx, userId, before, given);
  try {
    // One statement, waited for off the event loop while another process holds the write lock
    // (store/when-write-free.ts); the keychain entry above is made once, not at every try.
    await whenWriteFree(ctx.db, () =>
      writeOverwriting(ctx.db, before.webhook_secret !== null && before.webhook_secret !== after.webhook_secret, () =>
        ctx.db
          .prepare('UPDATE api_users SET webhook_url = ?, webhook_secret = ?, webhook_secret_ref = ? WHERE id = ?')
          .run(checked, after.webhook_secret, after.webhook_secret_ref, userId),
      ),
    );
  } catch (err) {
    // Not recorded (a full disk): an entry made just now would name nothing.
    await forgetReplaced(ctx, after, before);
    throw err;
  }
  await forgetReplaced(ctx, before, after);
  return webhookSettings(ctx.db, userId);
}
