import Fastify, { type FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine';
import type { KeychainInfo } from '../../shared/contract';
import type { UpstreamKeyStore } from '../engine/handlers/upstream';
import { errorBody, fail, routeNotFound, SkeinError, statusOf } from './errors';
import { registerHostCheck } from './plugins/host-check';
import { registerAuth } from './plugins/auth';
import { MAX_HEADER_BYTES, MAX_PARAM_CHARS, registerUrlLimit } from './plugins/limits';
import { clientErrorHandler, frameworkErrors, refuseConnect, refuseExpectation } from './plugins/malformed-requests';
import { registerReadRoutes } from './routes/reads';
import { registerMetering } from './plugins/metering';
import { registerAccountRoutes } from './routes/account';
import { registerSearchRoutes } from './routes/search';
import { registerJobRoutes } from './routes/jobs';
import { registerDatafileRoutes } from './routes/datafiles';
import { registerWebhookRoutes } from './routes/webhooks';
import { registerTwitterRoutes, rewriteTwitterPath } from './routes/twitter-paths';
import { registerAppPage } from './app-page';
import { logServerError } from './error-log';
import './request-context';

export interface HttpAppOptions {
  /** Folder of the built renderer, served at / in headless mode; absent in the desktop app. */
  rendererDir?: string;
  /** Host names besides loopback that may address us (from an explicit --host). */
  extraHosts?: ReadonlySet<string>;
  logger?: boolean;
  /** false only for the metering benchmark's baseline (bench/metering.bench.ts). */
  metering?: boolean;
  /** The OS keychain's state, shown in the app's Settings (headless mode). */
  keychain?: () => KeychainInfo;
  /** Where a key typed in Settings > Sources is kept (handlers/upstream.ts); absent: this session only. */
  upstreamKeyStore?: UpstreamKeyStore | null;
  /** Where 5xx lines go (http/error-log.ts); stderr unless a test listens. */
  errorLog?: (line: string) => void;
}

// Limits on everything a client can send: a spec request is a short GET or a small POST.
const BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_PARAM_LENGTH = MAX_PARAM_CHARS;

export async function buildHttpApp(engine: Engine, options: HttpAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Ids are parsed by our own validators, never coerced to a JS number.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    return503OnClosing: true,
    // Header and URL limits (plugins/limits.ts); parser-level refusals answer in the spec's body.
    // requireHostHeader off: Node would refuse an HTTP/1.1 request without Host itself, with a bare
    // 400 and no body; the host check (plugins/host-check.ts) refuses it instead, in the spec's body.
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    clientErrorHandler,
    frameworkErrors,
    // The real service's paths (/twitter/...) that a spec route serves are routed to it (routes/twitter-paths.ts).
    rewriteUrl: (req) => rewriteTwitterPath(req.method, req.url ?? '/'),
  });

  // Neither reaches Fastify: Node hands CONNECT to 'connect' listeners (or drops it unanswered) and
  // an unknown Expect to 'checkExpectation' ones (or answers a bare 417).
  app.server.on('connect', refuseConnect);
  app.server.on('checkExpectation', refuseExpectation);
  registerHostCheck(app, options.extraHosts ?? new Set());
  registerUrlLimit(app);

  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; code?: string }, request, reply) => {
    let status: number;
    let failure: SkeinError;
    if (err instanceof SkeinError) {
      failure = err;
      status = statusOf[err.code];
    } else if (err.validation) {
      failure = new SkeinError('invalid', `Validation failed: ${err.message}.`);
      status = 422;
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      // Fastify's own client errors (bad JSON body, body too large, unsupported media type):
      // a malformed request is the spec's 422; 413 and 415 keep their more precise status.
      status = err.statusCode === 400 ? 422 : err.statusCode;
      failure = new SkeinError('invalid', err.message);
    } else {
      logServerError(request, err, engine.clock.nowMs(), options.errorLog);
      failure = fail.internal(request.id);
      status = 500;
    }
    void reply
      .code(status)
      .headers(failure.headers)
      .type('application/json; charset=utf-8')
      .send(errorBody(failure.message));
  });

  app.setNotFoundHandler((request, reply) => {
    const e = routeNotFound(request.method, request.url);
    void reply.code(404).type('application/json; charset=utf-8').send(errorBody(e.message));
  });

  // The request pipeline of spec routes: auth (who) -> metering (may they, and at what cost).
  // Capabilities register their plugins and routes below, one line each.
  registerAuth(app, engine);
  registerMetering(app, engine, { enabled: options.metering !== false });
  // -- routes --
  registerReadRoutes(app, engine);
  registerAccountRoutes(app, engine);
  registerSearchRoutes(app, engine);
  registerJobRoutes(app, engine);
  registerDatafileRoutes(app, engine);
  registerWebhookRoutes(app, engine);
  registerTwitterRoutes(app, engine);

  if (options.rendererDir) await registerAppPage(app, engine, options.rendererDir, options.keychain, options.upstreamKeyStore ?? null);
  return app;
}
