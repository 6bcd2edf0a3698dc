import type { FastifyInstance, FastifyRequest, RouteShorthandOptionsWithHandler } from 'fastify';
import type { Engine } from '../../engine/engine';
import { parseNumericId, readArticle, readTweetJson, type JsonReadResult, type ReadResult } from '../../engine/reads';
import { checkFirst, schemaError, sendRead, stringParam } from './spec-route';

/**
 * Spec 4.3 (both forms) and 4.4: one post's details, one article's details. Parameters are checked
 * in preValidation, before metering's balance check, so a malformed id is 422 and never 402.
 */
export function registerTweetRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/social/statuses/show', byNumericId('querystring', 'id', (id) => readTweetJson(engine, id)));
  app.get('/social/tweets/:id', byNumericId('params', 'id', (id) => readTweetJson(engine, id)));
  app.get('/social/article/:article_id', byNumericId('params', 'article_id', (id) => readArticle(engine, id)));
}

/** A 1-credit read of one object named by a numeric id, given in the query (`?id=`) or the path. */
function byNumericId(
  from: 'querystring' | 'params',
  name: string,
  read: (id: unknown) => ReadResult | JsonReadResult,
): RouteShorthandOptionsWithHandler {
  const idOf = (request: FastifyRequest) => ((from === 'params' ? request.params : request.query) as Record<string, unknown>)[name];
  return {
    config: { spec: true, maxCost: 1 },
    schema: { [from]: { type: 'object', properties: { [name]: stringParam(64) }, required: [name] } },
    schemaErrorFormatter: schemaError,
    preValidation: checkFirst((request) => void parseNumericId(name, idOf(request))),
    handler: (request, reply) => sendRead(request, reply, read(idOf(request))),
  };
}
