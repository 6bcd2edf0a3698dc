import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine';
import { availableFor } from '../../engine/ledger';
import { parseUserRef, readUserProfile } from '../../engine/reads/user-profile';
import { ensureUser } from '../../engine/upstream/fetch-reads';
import { checkFirst, schemaError, sendReadVia, stringParam } from './spec-route';
import { registerUnservedTwitterRoutes } from './twitter-unserved';

// The real service's paths (github.com/socialdata-api/typescript-sdk, docs.socialdata.tools): a
// script written for it works against Skein by changing only its base URL. docs/api.md "The real
// service's paths" lists what is served and what answers 404.

/**
 * Each real-service read that Skein already serves, and the spec route that serves it. The
 * request is routed to that route itself (Fastify's rewriteUrl, app.ts), so auth, rate limit,
 * parameter checks, price, errors and the JSON are the same route's, byte for byte. `:name`
 * is one path segment; a segment the spec route takes from the query (the space id) is added
 * to the query.
 */
export const TWITTER_ALIASES: readonly (readonly [twitter: string, social: string])[] = [
  ['/twitter/user/:user_id/tweets', '/social/user/:user_id/tweets'],
  ['/twitter/user/:user_id/tweets-and-replies', '/social/user/:user_id/tweets-and-replies'],
  ['/twitter/tweets/:id', '/social/tweets/:id'],
  ['/twitter/statuses/show', '/social/statuses/show'],
  ['/twitter/article/:article_id', '/social/article/:article_id'],
  ['/twitter/space/:id', '/social/spaces/show?id=:id'],
  ['/twitter/search', '/social/search'],
];

interface Alias {
  segments: readonly string[];
  /** The spec route's path and query templates (the query's `:name` filled from the path). */
  path: string;
  query: string;
}

const ALIASES: readonly Alias[] = TWITTER_ALIASES.map(([twitter, social]) => {
  const [path = '', query = ''] = social.split('?');
  return { segments: twitter.split('/'), path, query };
});

/**
 * The URL a GET or HEAD of an aliased path is routed to; any other URL unchanged. Runs on every
 * request before routing, so everything but /twitter/ returns after one prefix test.
 */
export function rewriteTwitterPath(method: string | undefined, url: string): string {
  if (!url.startsWith('/twitter/') || (method !== 'GET' && method !== 'HEAD')) return url;
  const q = url.indexOf('?');
  const segments = (q === -1 ? url : url.slice(0, q)).split('/');
  const given = q === -1 ? '' : url.slice(q + 1);
  for (const alias of ALIASES) {
    const values = match(alias, segments);
    if (!values) continue;
    const fill = (template: string, inQuery: boolean) =>
      // A path segment moved into the query keeps its meaning: '+' is a plus in a path, a space in a query.
      template.replace(/:\w+/g, (name) => (inQuery ? values.get(name)!.replace(/\+/g, '%2B') : values.get(name)!));
    const query = [fill(alias.query, true), given].filter(Boolean).join('&');
    return query ? `${fill(alias.path, false)}?${query}` : fill(alias.path, false);
  }
  return url;
}

/** The alias's `:name` segments with the request's values, or undefined when the path is another. */
function match(alias: Alias, segments: string[]): Map<string, string> | undefined {
  if (segments.length !== alias.segments.length) return undefined;
  const values = new Map<string, string>();
  for (let i = 0; i < segments.length; i++) {
    const want = alias.segments[i]!;
    const got = segments[i]!;
    if (!want.startsWith(':')) {
      if (want !== got) return undefined;
    } else if (got === '') {
      return undefined;
    } else {
      values.set(want, got);
    }
  }
  return values;
}

/** What 1 credit (one item) costs at the real service: $0.0002 (docs.socialdata.tools, Pricing). */
export const CREDITS_PER_USD = 5000;

/** The routes of the real service's paths that are not aliases of a spec route. */
export function registerTwitterRoutes(app: FastifyInstance, engine: Engine): void {
  // A user's profile by id or screen name: 1 credit, like a detail; a malformed name is 422 before
  // the balance check could answer 402.
  const userOf = (request: FastifyRequest) => (request.params as { user: string }).user;
  app.get('/twitter/user/:user', {
    config: { spec: true, maxCost: 1 },
    schema: { params: { type: 'object', properties: { user: stringParam(64) }, required: ['user'] } },
    schemaErrorFormatter: schemaError,
    preValidation: checkFirst((request) => void parseUserRef(userOf(request))),
    handler: (request, reply) => sendReadVia(engine, request, reply, (who) => ensureUser(engine, who, userOf(request)), () => readUserProfile(engine, userOf(request))),
  });

  // The balance in the real service's unit, US dollars: available credits at $0.0002 each (one
  // item costs one credit here and $0.0002 there, so balance / 0.0002 items can still be fetched
  // on both). Free, like GET /social/account; it counts against the rate limit.
  app.get('/user/balance', {
    config: { spec: true, maxCost: 0 },
    handler: (request, reply) => {
      const balance = availableFor(engine.db, request.apiUser!.id) / CREDITS_PER_USD;
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ status: 'success', balance }));
    },
  });

  registerUnservedTwitterRoutes(app);
}
