import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { parseNumericId, readArticle, readTweetJson } from '../../engine/reads';
import { checkFirst, schemaError, sendRead, stringParam } from './spec-route';

/**
 * Spec 4.3 (both forms) and 4.4: one post's details, one article's details. Parameters are checked
 * in preValidation, before metering's balance check, so a malformed id is 422 and never 402.
 */
export function registerTweetRoutes(app: FastifyInstance, engine: Engine): void {
  const config = { spec: true, maxCost: 1 };
  app.get('/social/statuses/show', {
    config,
    schema: { querystring: { type: 'object', properties: { id: stringParam(64) }, required: ['id'] } },
    schemaErrorFormatter: schemaError,
    preValidation: checkFirst((request) => void parseNumericId('id', (request.query as { id?: unknown }).id)),
    handler: async (request, reply) => sendRead(request, reply, readTweetJson(engine, (request.query as { id: string }).id)),
  });
  app.get('/social/tweets/:id', {
    config,
    schema: { params: { type: 'object', properties: { id: stringParam(64) }, required: ['id'] } },
    schemaErrorFormatter: schemaError,
    preValidation: checkFirst((request) => void parseNumericId('id', (request.params as { id?: unknown }).id)),
    handler: async (request, reply) => sendRead(request, reply, readTweetJson(engine, (request.params as { id: string }).id)),
  });
  app.get('/social/article/:article_id', {
    config,
    schema: { params: { type: 'object', properties: { article_id: stringParam(64) }, required: ['article_id'] } },
    schemaErrorFormatter: schemaError,
    preValidation: checkFirst((request) => void parseNumericId('article_id', (request.params as { article_id?: unknown }).article_id)),
    handler: async (request, reply) =>
      sendRead(request, reply, readArticle(engine, (request.params as { article_id: string }).article_id)),
  });
}
