import type { FastifyInstance, FastifyRequest, RouteShorthandOptionsWithHandler } from 'fastify';
import type { Engine } from '../../engine/engine';
import { parseNumericId, readArticle, readTweetJson, type JsonReadResult, type ReadResult } from '../../engine/reads';
import { ensureArticle, ensurePost } from '../../engine/upstream/fetch-reads';
import type { Served } from '../../engine/upstream/gateway';
import type { Requester } from '../../engine/upstream/spend';
import { checkFirst, schemaError, sendReadVia, stringParam } from './spec-route';

/**
 * Spec 4.3 (both forms) and 4.4: one post's details, one article's details. Parameters are checked
 * in preValidation, before metering's balance check, so a malformed id is 422 and never 402.
 */
export function registerTweetRoutes(app: FastifyInstance, engine: Engine): void {
  const post = (who: Requester, id: unknown) => ensurePost(engine, who, id);
  app.get('/social/statuses/show', byNumericId(engine, 'querystring', 'id', post, (id) => readTweetJson(engine, id)));
  app.get('/social/tweets/:id', byNumericId(engine, 'params', 'id', post, (id) => readTweetJson(engine, id)));
  app.get('/social/article/:article_id', byNumericId(engine, 'params', 'article_id', (who, id) => ensureArticle(engine, who, id), (id) => readArticle(engine, id)));
}

/** A 1-credit read of one object named by a numeric id, given in the query (`?id=`) or the path. */
function byNumericId(
  engine: Engine,
  from: 'querystring' | 'params',
  name: string,
  ensure: (who: Requester, id: unknown) => Promise<Served>,
  read: (id: unknown) => ReadResult | JsonReadResult,
): RouteShorthandOptionsWithHandler {
  const idOf = (request: FastifyRequest) => ((from === 'params' ? request.params : request.query) as Record<string, unknown>)[name];
  return {
    config: { spec: true, maxCost: 1 },
    schema: { [from]: { type: 'object', properties: { [name]: stringParam(64) }, required: [name] } },
    schemaErrorFormatter: schemaError,
    preValidation: checkFirst((request) => void parseNumericId(name, idOf(request))),
    handler: (request, reply) => sendReadVia(engine, request, reply, (who) => ensure(who, idOf(request)), () => read(idOf(request))),
  };
}
