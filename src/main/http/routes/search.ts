import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { checkSearchRequest, readSearch, SEARCH_PAGE_SIZE } from '../../engine/search';
import { searchVia } from '../../engine/upstream/fetch-reads';
import { schemaError, sendPageVia, stringParam } from './spec-route';

/**
 * Synchronous search, an extension beyond the spec (docs/search-language.md): the search job's
 * query language answered page by page, `{next_cursor, tweets}` with 20 tweets in the timeline
 * shape, metered like a timeline page.
 */
export function registerSearchRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/social/search', {
    config: { spec: true, maxCost: SEARCH_PAGE_SIZE },
    schema: {
      querystring: {
        type: 'object',
        properties: { query: stringParam(1024), type: stringParam(16), cursor: stringParam(256) },
      },
    },
    schemaErrorFormatter: schemaError,
    handler: (request, reply) => {
      const { query, type, cursor } = request.query as { query?: string; type?: string; cursor?: string };
      const local = () => readSearch(engine, { query, type, cursor });
      return sendPageVia(engine, request, reply, (who) => {
        // The query and type are checked as the local search checks them, before anything is sent.
        const checked = checkSearchRequest({ query, type });
        return searchVia(engine, who, checked.query, checked.type, cursor, local);
      }, local);
    },
  });
}
