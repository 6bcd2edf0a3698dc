import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { parseSpaceId, readSpace } from '../../engine/reads';
import { ensureSpace } from '../../engine/upstream/fetch-reads';
import { checkFirst, schemaError, sendReadVia, stringParam } from './spec-route';

/**
 * Spec 4.5: space details. The spec's sample request omits `/social`; whether that form is
 * accepted is "not shown": Skein accepts both and answers identically (docs/decisions.md).
 */
export function registerSpaceRoutes(app: FastifyInstance, engine: Engine): void {
  for (const path of ['/social/spaces/show', '/spaces/show']) {
    app.get(path, {
      config: { spec: true, maxCost: 1 },
      schema: { querystring: { type: 'object', properties: { id: stringParam(128) }, required: ['id'] } },
      schemaErrorFormatter: schemaError,
      preValidation: checkFirst((request) => void parseSpaceId('id', (request.query as { id?: unknown }).id)),
      handler: (request, reply) => {
        const { id } = request.query as { id: string };
        return sendReadVia(engine, request, reply, (who) => ensureSpace(engine, who, id), () => readSpace(engine, id));
      },
    });
  }
}
