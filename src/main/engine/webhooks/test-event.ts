import type { Clock } from '../clock';
import { fail } from '../errors';
import type { Db } from '../store/db';
import { deliverWebhook, WEBHOOK_TIMEOUT_MS } from './deliver';
import { readSecret, secretColumnsOf, type SecretKeeper } from './secret-store';

// "Send a test event" (issue 15): one POST to a user's webhook URL, signed as a real delivery is,
// so an analyst sees at once whether the receiver answers 200 and checks the signature, without
// waiting for a job to end. The body says it is a test: `{"event":"test","data":{...}}`, which a
// receiver built for `job_finished` can tell apart and ignore. It is not a delivery of a job, so it
// is not in the delivery log (whose rows are one per finished job, never repeated); its outcome is
// the answer. The secret is read as for a delivery: one that cannot be read sends nothing.

export interface TestEventOutcome {
  url: string;
  ok: boolean;
  http_status: number | null;
  error: string | null;
  signed: boolean;
  duration_ms: number;
}

export async function sendTestEvent(
  ctx: { db: Db; clock: Clock; keychain: SecretKeeper | null },
  userId: number,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<TestEventOutcome> {
  const row = ctx.db.prepare('SELECT name, webhook_url FROM api_users WHERE id = ?').get(userId) as { name: string; webhook_url: string | null } | undefined;
  if (!row) throw fail.notFound(`No api user with id ${userId}.`);
  if (!row.webhook_url) throw fail.invalid('url', `${row.name} has no webhook URL: save one first.`);
  const secret = await readSecret(ctx.keychain, secretColumnsOf(ctx.db, userId));
  if (!secret.ok) throw fail.conflict(`The webhook's signing secret cannot be read now, so nothing was sent: ${secret.why}`);
  const startedMs = ctx.clock.nowMs();
  const body = JSON.stringify({ event: 'test', data: { user: row.name, sent_at: new Date(startedMs).toISOString(), note: 'A test event from Skein; no job ended.' } });
  const outcome = await deliverWebhook(row.webhook_url, body, { timeoutMs, secret: secret.secret, nowMs: startedMs });
  return { url: row.webhook_url, ok: outcome.ok, http_status: outcome.httpStatus, error: outcome.error, signed: secret.secret !== null, duration_ms: Math.max(0, ctx.clock.nowMs() - startedMs) };
}
