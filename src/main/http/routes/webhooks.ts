import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine';
import { fail } from '../errors';
import { checkWebhookSecret, createInbox, inboxesOf, inboxMessages, INBOX_MAX_BODY_BYTES, listDeliveries, recordInboxMessage, setWebhook, webhookSettings } from '../../engine/webhooks';
import { whenWriteFree } from '../../engine/store/when-write-free';

// Webhook settings and the delivery log for the key's user (extensions: the spec sets the URL in
// a dashboard), and the webhook inbox: POST /inbox/<token> keeps what it receives (no key: the
// token is the capability, as for a receiver anywhere else), GET /inbox/<token> lists it.

const json = 'application/json; charset=utf-8';

function userOf(request: FastifyRequest): number {
  if (!request.apiUser) throw fail.unauthorized('Missing API key: send Authorization: Bearer <API_KEY>.');
  return request.apiUser.id;
}

/** Headers worth showing in the inbox (never the Authorization of a misdirected client). */
const SHOWN_HEADERS = ['content-type', 'user-agent', 'x-skein-signature', 'content-length'];

export function registerWebhookRoutes(app: FastifyInstance, engine: Engine): void {
  const { db } = engine;
  const free = { spec: true, maxCost: 0 };

  app.get('/webhooks', { config: free }, async (request, reply) => {
    const userId = userOf(request);
    return reply.type(json).send(JSON.stringify({ ...webhookSettings(db, userId), deliveries: listDeliveries(db, userId, 50) }));
  });

  app.put('/webhooks', { config: free }, async (request, reply) => {
    const body = (request.body ?? {}) as { url?: unknown; secret?: unknown };
    if (typeof body !== 'object' || Array.isArray(body)) throw fail.invalid('body', 'expected {"url": "...", "secret": "..."}.');
    const url = body.url === null || body.url === '' ? null : body.url;
    if (url !== null && typeof url !== 'string') throw fail.invalid('url', 'expected text, or null to clear.');
    // An empty secret is a mistake (an unset variable in a script), not a removal: that is null (secret-store.ts).
    const userId = userOf(request);
    const secret = body.secret === undefined ? undefined : body.secret === null ? null : checkWebhookSecret(body.secret);
    return reply.type(json).send(JSON.stringify(await setWebhook(engine, userId, url as string | null, secret)));
  });

  app.post('/webhooks/inboxes', { config: free }, async (request, reply) => {
    const userId = userOf(request);
    const token = await whenWriteFree(db, () => createInbox(db, engine.ids, userId, engine.clock.nowMs()));
    const url = `${request.protocol}://${request.headers.host ?? '127.0.0.1'}/inbox/${token}`;
    return reply.type(json).send(JSON.stringify({ token, url }));
  });

  app.get('/webhooks/inboxes', { config: free }, async (request, reply) => {
    return reply.type(json).send(JSON.stringify({ inboxes: inboxesOf(db, userOf(request)) }));
  });

  void app.register(async (scope) => {
    // Whatever arrives is kept as text (a receiver does not get to choose what it is sent).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: INBOX_MAX_BODY_BYTES }, (_req, body, done) => done(null, String(body)));
    scope.post('/inbox/:token', { bodyLimit: INBOX_MAX_BODY_BYTES }, async (request, reply) => {
      const headers: Record<string, string> = {};
      for (const h of SHOWN_HEADERS) {
        const v = request.headers[h];
        if (typeof v === 'string') headers[h] = v.slice(0, 500);
      }
      const message = {
        received_at_ms: engine.clock.nowMs(),
        content_type: request.headers['content-type']?.slice(0, 200) ?? null,
        headers,
        body: typeof request.body === 'string' ? request.body : '',
      };
      // Skein's own webhooks land here too: a job that ends during `skein import` posts one.
      const id = await whenWriteFree(db, () => recordInboxMessage(db, (request.params as { token: string }).token, message));
      return reply.type(json).send(JSON.stringify({ status: 'success', id }));
    });
    scope.get('/inbox/:token', async (request, reply) => {
      return reply.type(json).send(JSON.stringify({ messages: inboxMessages(db, (request.params as { token: string }).token) }));
    });
  });
}
