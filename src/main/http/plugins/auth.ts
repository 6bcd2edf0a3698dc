import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { authenticate, bearerKey } from '../../engine/keys';
import '../request-context';
import { onSpecRoutes } from '../spec-hooks';

/**
 * Spec section 5: every spec endpoint (route config `spec: true`) needs `Authorization: Bearer
 * <key>`. A missing, malformed, unknown or revoked key is refused with 401 (the spec leaves the
 * status open; docs/decisions.md) before any other work. Sets request.apiUser for metering.
 */
export function registerAuth(app: FastifyInstance, engine: Engine): void {
  // Declared up front, so setting it does not change a request's shape halfway through the pipeline.
  app.decorateRequest('apiUser', undefined);
  onSpecRoutes(app, () => ({
    onRequest(request, _reply, done) {
      // The remembered user itself, not a copy: no object per request (bench/api); nothing changes it.
      request.apiUser = authenticate(engine, bearerKey(request.headers.authorization));
      done();
    },
  }));
}
