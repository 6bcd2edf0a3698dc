import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eventNames, type AppError } from '../../../shared/contract';
import type { Engine } from '../../engine/engine';
import { dispatch } from '../../engine/handlers/dispatch';
import type { AppHandlers } from '../../engine/handlers';
import { statusOf } from '../../engine/errors';
import type { AppSession } from '../app-session';

// Headless transport of the contract: POST /app/rpc/<name> with JSON args, GET /app/events as
// server-sent events, POST /app/upload for files dropped on the page, GET /app/session to ask
// whether the server is back. Only a logged-in browser may call it (http/app-session.ts): every
// route takes the session cookie and nothing else (no token in a header, a URL or the page). A
// browser's cross-site request is refused by its Origin / Sec-Fetch-Site headers, besides the
// global Host check (DNS rebinding) and the cookie's SameSite=Strict; every route but the event
// stream (EventSource cannot set headers) also needs the header `x-skein-app: 1`, which another
// site's page could send only after a CORS preflight Skein never allows.

export const APP_HEADER = 'x-skein-app';
/** The start of the refusal for a browser without the session; the page then shows how to log in. */
export const NOT_LOGGED_IN = 'Forbidden: this browser is not logged in to Skein';
const RPC_BODY_LIMIT_BYTES = 256 * 1024;
// Imports can be multi-gigabyte archives; past this a file should be imported with `skein import`.
const UPLOAD_LIMIT_BYTES = 8 * 1024 ** 3;
// SSE keep-alive: proxies and browsers drop idle streams after about 30-60 s.
const HEARTBEAT_MS = 15_000;

export interface AppRpcOptions {
  session: AppSession;
  app: AppHandlers;
}

export async function registerAppRpc(app: FastifyInstance, engine: Engine, options: AppRpcOptions): Promise<void> {
  // Open event streams never end by themselves: closing the server ends them, or close() would
  // wait for the browser tab forever (SIGTERM must stop Skein promptly).
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of streams) res.end();
    streams.clear();
  });
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    scope.addHook('onRequest', async (request, reply) => {
      const refusal = refuse(request, options.session);
      if (refusal) return sendError(reply, 403, { code: 'forbidden', message: refusal });
    });

    // A tab open while its server restarts asks here until the server answers again. The session
    // cookie survives a restart on the same data dir, so nothing needs renewing: a 200 says "back,
    // and still logged in", a refusal says the login token changed (the page then shows how to log in).
    scope.get('/app/session', (_request, reply) =>
      reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify({ value: { logged_in: true } })));

    scope.post('/app/rpc/:name', { bodyLimit: RPC_BODY_LIMIT_BYTES }, async (request, reply) => {
      const { name } = request.params as { name: string };
      const result = await dispatch(options.app.handlers, name, request.body ?? {});
      if (result.ok) return reply.type('application/json; charset=utf-8').send(JSON.stringify({ value: result.value }));
      // A handler's refusal is an answer, not a failed request (issue 15: "expected states are not
      // console errors"): a query with a syntax error, a user not found, a protected timeline come
      // back 200 with {"error": {code, message}}, so the browser logs no failed request for them.
      // Only what the app cannot expect keeps its status: Skein's own fault (500).
      if (result.error.code !== 'internal') return reply.type('application/json; charset=utf-8').send(JSON.stringify({ status: 'error', message: result.error.message, error: result.error }));
      return sendError(reply, statusOf[result.error.code], result.error);
    });

    scope.get('/app/events', (request, reply) => {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`retry: 2000\n: subscribed to ${eventNames.join(', ')}\n\n`);
      let unsubscribe: () => void = () => {};
      try {
        unsubscribe = options.app.events.subscribe((event, payload) => {
          res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
        });
      } catch (err) {
        res.end(`event: error\ndata: ${JSON.stringify({ message: (err as Error).message })}\n\n`);
        return;
      }
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      streams.add(res);
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
      });
    });

    scope.post('/app/upload', { bodyLimit: UPLOAD_LIMIT_BYTES }, async (request, reply) => {
      const name = sanitizeName(String((request.query as Record<string, unknown>).name ?? 'upload'));
      const body = request.body;
      if (!body || typeof (body as NodeJS.ReadableStream).pipe !== 'function') {
        return sendError(reply, 415, { code: 'invalid', message: 'Send the file as application/octet-stream.' });
      }
      const dir = join(engine.dataDir, 'imports');
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${engine.ids.randomHex(4)}-${name}`);
      let bytes = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > UPLOAD_LIMIT_BYTES) {
            done(Object.assign(new Error(`The file is larger than ${UPLOAD_LIMIT_BYTES / 1024 ** 3} GiB: import it with 'skein import' instead.`), { statusCode: 413 }));
          } else done(null, chunk);
        },
      });
      try {
        await pipeline(body as NodeJS.ReadableStream, limit, createWriteStream(path));
      } catch (err) {
        // Nothing half-written stays behind (a dropped connection, the size limit).
        rmSync(path, { force: true });
        throw err;
      }
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ value: { path, bytes } }));
    });
  });
}

function crossSite(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${request.headers.host}`) return 'Forbidden origin: the app API answers only its own page.';
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'Forbidden: cross-site request.';
  return null;
}

function refuse(request: FastifyRequest, session: AppSession): string | null {
  const crossed = crossSite(request);
  if (crossed) return crossed;
  if (!session.isLoggedIn(request)) return `${NOT_LOGGED_IN}: open the address \`skein serve\` printed (it ends in ?token=...).`;
  // EventSource cannot set headers; the event stream's GET changes nothing and another site cannot read it.
  const isEventStream = request.method === 'GET' && request.routeOptions.url === '/app/events';
  if (!isEventStream && request.headers[APP_HEADER] !== '1') return `Forbidden: send the header ${APP_HEADER}: 1.`;
  return null;
}

function sendError(reply: FastifyReply, status: number, error: AppError) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify({ status: 'error', message: error.message, error }));
}

function sanitizeName(name: string): string {
  const clean = basename(name).replace(/[^\w.\- ]+/g, '_').slice(0, 120);
  return clean === '' || clean === '.' || clean === '..' ? 'upload' : clean;
}
