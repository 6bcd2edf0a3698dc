import { fail } from '../errors';
import type { Db } from '../store/db';

/** The longest webhook URL accepted (a URL longer than this is a mistake, not an endpoint). */
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 256;

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
}

export function webhookSettings(db: Db, userId: number): WebhookSettings {
  const row = db.prepare('SELECT webhook_url, webhook_secret FROM api_users WHERE id = ?').get(userId) as { webhook_url: string | null; webhook_secret: string | null } | undefined;
  if (!row) throw fail.notFound(`User ${userId} was not found.`);
  return { url: row.webhook_url, hasSecret: !!row.webhook_secret };
}

/** Sets (url) or clears (null) a user's webhook; `secret` undefined keeps the current one, null removes it. */
export function setWebhook(db: Db, userId: number, url: string | null, secret?: string | null): WebhookSettings {
  const checked = url === null ? null : checkWebhookUrl(url);
  if (typeof secret === 'string' && (secret.length < 16 || secret.length > MAX_SECRET_LENGTH)) {
    throw fail.invalid('secret', `from 16 to ${MAX_SECRET_LENGTH} characters.`);
  }
  const changed =
    secret === undefined
      ? db.prepare('UPDATE api_users SET webhook_url = ? WHERE id = ?').run(checked, userId).changes
      : db.prepare('UPDATE api_users SET webhook_url = ?, webhook_secret = ? WHERE id = ?').run(checked, secret, userId).changes;
  if (changed !== 1) throw fail.notFound(`User ${userId} was not found.`);
  return webhookSettings(db, userId);
}
