import type { ApiKeyRow, ApiUserRow, Balance, LedgerEntry, WebhookDelivery } from '../../../shared/contract';
import type { Engine } from '../engine';
import { fail } from '../errors';
import { createKey, findUserById, listKeys, MAX_OPENING_CREDITS, revokeKey } from '../keys';
import { balanceOf, grant, latestTransfersOf, upstreamItemsOf } from '../ledger';
import { floatKeeperOf } from '../ledger/float-keeper';
import { checkWebhookSecret, sendTestEvent, setWebhook as setUserWebhook, type TestEventOutcome, webhookSettings } from '../webhooks';
import { intArg, optionalIntArg, optionalTextArg, record, textArg } from './validate';
import { whenWriteFree } from '../store/when-write-free';

// Settings are the analyst's own bookkeeping, not data reads: they are not metered.
const LEDGER_ROWS = 1_000;
const DELIVERY_ROWS = 200;
const MAX_GRANT = 1_000_000_000;
const MAX_URL_LENGTH = 2_048;

function balance(engine: Engine, userId: number): Balance {
  const b = balanceOf(engine.db, userId);
  return { posted: b.posted, pending: b.pending, available: b.available };
}

function userRow(engine: Engine, id: number): ApiUserRow {
  const u = findUserById(engine.db, id);
  if (!u) throw fail.notFound(`No API user with id ${id}.`);
  return {
    id: u.id,
    name: u.name,
    builtin: u.builtin === 1,
    per_minute_limit: u.per_minute_limit,
    webhook_url: u.webhook_url,
    webhook_secret_kept_in: webhookSettings(engine.db, u.id).secretKeptIn,
    balance: balance(engine, u.id),
  };
}

function userIdArg(args: Record<string, unknown>): number {
  return intArg(args, 'user_id', 1, Number.MAX_SAFE_INTEGER);
}

export function listUsers(engine: Engine): ApiUserRow[] {
  return listKeys(engine.db).map((u) => ({
    id: u.id,
    name: u.name,
    builtin: u.builtin,
    per_minute_limit: u.perMinuteLimit,
    webhook_url: u.webhookUrl,
    webhook_secret_kept_in: webhookSettings(engine.db, u.id).secretKeptIn,
    balance: balance(engine, u.id),
  }));
}

export async function setLimit(engine: Engine, raw: unknown): Promise<ApiUserRow> {
  const args = record(raw);
  const userId = userIdArg(args);
  // The same bounds as the column's CHECK (migration 010).
  const perMinute = intArg(args, 'per_minute', 1, 100_000);
  userRow(engine, userId);
  await whenWriteFree(engine.db, () => engine.db.prepare('UPDATE api_users SET per_minute_limit = ? WHERE id = ?').run(perMinute, userId));
  return userRow(engine, userId);
}

export function listApiKeys(engine: Engine): ApiKeyRow[] {
  return listKeys(engine.db).flatMap((u) =>
    u.keys.map((k) => ({
      id: k.keyId,
      user_id: k.userId,
      user_name: k.userName,
      prefix: k.prefix,
      created_ms: k.createdAtMs,
      revoked_ms: k.revokedAtMs,
      last_used_ms: k.lastUsedAtMs,
    })),
  );
}

export async function createApiKey(engine: Engine, raw: unknown): Promise<{ key: string; key_id: number; user_id: number }> {
  const args = record(raw);
  const name = textArg(args, 'user', 64).trim();
  // The form's "Starting credits" is the new user's whole opening balance (createKey); left empty,
  // the default applies.
  const credits = optionalIntArg(args, 'credits', 0, MAX_OPENING_CREDITS);
  const created = await whenWriteFree(engine.db, () => createKey(engine, name, { credits }));
  return { key: created.key, key_id: created.keyId, user_id: created.user.id };
}

export async function revokeApiKey(engine: Engine, raw: unknown): Promise<ApiKeyRow> {
  const keyId = intArg(record(raw), 'key_id', 1, Number.MAX_SAFE_INTEGER);
  await whenWriteFree(engine.db, () => revokeKey(engine, String(keyId)));
  const row = listApiKeys(engine).find((k) => k.id === keyId);
  if (!row) throw fail.notFound(`No API key with number ${keyId}.`);
  return row;
}

export async function grantCredits(engine: Engine, raw: unknown): Promise<Balance> {
  const args = record(raw);
  const userId = userIdArg(args);
  const amount = intArg(args, 'amount', 1, MAX_GRANT);
  userRow(engine, userId);
  const nowMs = engine.clock.nowMs();
  const transferId = `grant:app:${nowMs}:${engine.ids.randomHex(6)}`;
  await whenWriteFree(engine.db, () => grant(engine.db, { transferId, userId, amount, nowMs, memo: 'Granted in the app' }));
  return balance(engine, userId);
}

const KIND_WORDS: Record<string, string> = { posted: 'transfer', pending: 'hold', post_pending: 'hold spent', void_pending: 'hold released' };

/**
 * The newest LEDGER_ROWS transfers of a user, newest first, signed from the user's side, each with
 * the available balance after it (as 'skein credits ledger' shows it).
 */
export function ledgerOf(engine: Engine, raw: unknown): { balance: Balance; entries: LedgerEntry[]; upstream_items: number } {
  const userId = userIdArg(record(raw));
  userRow(engine, userId);
  // One snapshot: the newest line's balance is the figure shown above the table.
  return engine.db.transaction(() => ({
    balance: balance(engine, userId),
    entries: ledgerEntries(engine, userId),
    upstream_items: upstreamItemsOf(engine.db, userId),
  }))();
}

function ledgerEntries(engine: Engine, userId: number): LedgerEntry[] {
  const entries = latestTransfersOf(engine.db, userId, LEDGER_ROWS).map((t) => ({
    id: t.id,
    amount: t.direction === 'upstream' ? 0 : t.kind === 'posted' ? (t.direction === 'in' ? t.amount : -t.amount) : t.kind === 'post_pending' ? -t.amount : 0,
    held: t.direction === 'upstream' || t.kind === 'posted' || t.ownFloat ? 0 : t.kind === 'pending' ? t.amount : -t.amount,
    available_after: t.availableAfter,
    upstream_items: t.direction === 'upstream' ? t.amount : 0,
    kind: t.direction === 'upstream' ? 'upstream' : t.kind === 'posted' ? (t.direction === 'in' ? 'grant' : 'charge') : (KIND_WORDS[t.kind] ?? t.kind),
    status: t.kind === 'pending' ? 'pending' : t.kind === 'void_pending' ? 'voided' : 'posted',
    created_ms: t.createdAtMs,
    memo: t.memo ?? (t.jobId !== null ? `job ${t.jobId}` : ''),
  }));
  // Requests this process answered from its float while another program held the database's
  // write lock: spent in the balance shown above, in the ledger once the lock frees.
  const journaled = floatKeeperOf(engine.db)?.shareOf(userId).journaled ?? 0;
  if (journaled === 0) return entries;
  const newest = entries[0]?.available_after ?? 0;
  const unposted: LedgerEntry = {
    id: 'not-yet-in-the-ledger',
    amount: -journaled,
    held: 0,
    available_after: newest - journaled,
    upstream_items: 0,
    kind: 'charge',
    status: 'pending',
    created_ms: engine.clock.nowMs(),
    memo: UNPOSTED_MEMO,
  };
  return [unposted, ...entries];
}

const UNPOSTED_MEMO = 'requests answered while another program writes to the database; written to the ledger when it is done';

export async function setWebhook(engine: Engine, raw: unknown): Promise<ApiUserRow> {
  const args = record(raw);
  const userId = userIdArg(args);
  const url = optionalTextArg(args, 'url', MAX_URL_LENGTH)?.trim() ?? null;
  // Absent keeps the secret, null removes it; the keychain takes it where one answers (webhooks/secret-store.ts).
  const secret = args.secret === undefined ? undefined : args.secret === null ? null : checkWebhookSecret(args.secret);
  userRow(engine, userId);
  await setUserWebhook(engine, userId, url, secret);
  return userRow(engine, userId);
}

/** "Send a test event": one signed POST to the user's webhook URL; its outcome is the answer. */
export async function testWebhook(engine: Engine, raw: unknown): Promise<TestEventOutcome> {
  const userId = userIdArg(record(raw));
  userRow(engine, userId);
  return sendTestEvent(engine, userId);
}

interface DeliveryDbRow {
  id: number;
  job_id: number;
  url: string;
  state: string;
  http_status: number | null;
  error: string | null;
  created_at_ms: number;
  started_at_ms: number | null;
  duration_ms: number | null;
}

export function toDelivery(r: DeliveryDbRow): WebhookDelivery {
  return {
    id: r.id,
    job_id: r.job_id,
    url: r.url,
    status_code: r.http_status,
    ok: r.state === 'delivered',
    // A pending delivery with an error waits for its signing secret (webhooks/dispatcher.ts): say why.
    error: r.state === 'pending' && r.error ? r.error : r.state === 'pending' || r.state === 'sending' ? `${r.state}…` : r.error,
    sent_ms: r.started_at_ms ?? r.created_at_ms,
    duration_ms: r.duration_ms,
  };
}

export function deliveries(engine: Engine, raw: unknown): WebhookDelivery[] {
  const args = record(raw);
  const userId = optionalIntArg(args, 'user_id', 1, Number.MAX_SAFE_INTEGER);
  const rows = (
    userId === undefined
      ? engine.db.prepare('SELECT * FROM webhook_deliveries ORDER BY id DESC LIMIT ?').all(DELIVERY_ROWS)
      : engine.db.prepare('SELECT * FROM webhook_deliveries WHERE user_id = ? ORDER BY id DESC LIMIT ?').all(userId, DELIVERY_ROWS)
  ) as DeliveryDbRow[];
  return rows.map(toDelivery);
}

