import type { FastifyReply, FastifyRequest, FastifySchemaValidationError, preValidationHookHandler } from 'fastify';
import { fail } from '../errors';
import { toJson } from '../../engine/serialize/json';
import type { JsonReadResult, ReadResult } from '../../engine/reads/result';
import { chargeRequestGrouped } from '../plugins/metering';
import type { Engine } from '../../engine/engine';
import { currentConfig, modeOf, type Served } from '../../engine/upstream/gateway';
import { isPageCursor } from '../../engine/upstream/pages';
import type { PageRead } from '../../engine/upstream/fetch-reads';
import type { Requester } from '../../engine/upstream/spend';

// Shared parts of the spec's read routes: input schemas, their error messages, and the reply.

/** A string parameter; arrays (a repeated parameter) and over-long values are refused. */
export const stringParam = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/**
 * Schema failures as the spec's 422 naming the parameter, in the same words as the reads' own
 * checks (section 7: "a required parameter is missing").
 */
export function schemaError(errors: FastifySchemaValidationError[]): Error {
  const e = errors[0];
  if (!e) return fail.invalid('request', 'validation failed.');
  const missing = (e.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (e.keyword === 'required' && missing) return fail.missing(missing);
  const parameter = e.instancePath.replace(/^\//, '') || 'request';
  if (e.keyword === 'type') return fail.invalid(parameter, 'give it once, as text.');
  if (e.keyword === 'maxLength') return fail.invalid(parameter, 'too long.');
  return fail.invalid(parameter, e.message ?? 'validation failed.');
}

/**
 * A route's own parameter check as its preValidation hook, so a malformed parameter answers 422
 * before metering's balance check could answer 402. A callback hook: no promise per request.
 */
export function checkFirst(check: (request: FastifyRequest) => void): preValidationHookHandler {
  return (request, _reply, done) => {
    check(request);
    done();
  };
}

/**
 * A read's JSON, to return from the handler: once its items are charged and committed (the
 * metering plugin's price rule), or at once when nothing is charged. Not async: a promise less per
 * request on the hottest path (bench/api).
 */
export function sendRead(request: FastifyRequest, reply: FastifyReply, result: ReadResult<unknown> | JsonReadResult): Promise<string> | string {
  const body = 'json' in result ? result.json : toJson(result.value);
  void reply.type('application/json; charset=utf-8');
  const charged = chargeRequestGrouped(request, result.items);
  return charged ? charged.then(() => body) : body;
}

/** Who an upstream fetch is for: the request's API user, booked with its spend. */
export const requesterOf = (request: FastifyRequest): Requester => ({ via: 'api', apiUserId: request.apiUser?.id ?? null });

/**
 * A one-object read through the upstream as the mode says (upstream/fetch-reads.ts): `ensure`
 * stores a fresh copy when one is needed, then the local read answers, with `x-skein-source`
 * saying where the data came from. Offline (no upstream set) it is sendRead, synchronous.
 */
export function sendReadVia(
  engine: Engine,
  request: FastifyRequest,
  reply: FastifyReply,
  ensure: (who: Requester) => Promise<Served>,
  read: () => ReadResult<unknown> | JsonReadResult,
): Promise<string> | string {
  if (modeOf(engine) === 'offline') return sendRead(request, reply, read());
  return ensure(requesterOf(request)).then((served) => {
    void reply.header('x-skein-source', served);
    return sendRead(request, reply, read());
  });
}

/**
 * A page read through the upstream (timelines, search); offline, the local read alone, except for
 * an upstream page's cursor while an upstream is set: its next page is served if it is stored.
 */
export function sendPageVia(
  engine: Engine,
  request: FastifyRequest,
  reply: FastifyReply,
  via: (who: Requester) => Promise<PageRead>,
  local: () => ReadResult<unknown> | JsonReadResult,
): Promise<string> | string {
  const pageCursor = isPageCursor((request.query as { cursor?: unknown } | undefined)?.cursor);
  if (modeOf(engine) === 'offline' && (!pageCursor || currentConfig(engine) === null)) return sendRead(request, reply, local());
  return via(requesterOf(request)).then(({ result, served }) => {
    void reply.header('x-skein-source', served);
    return sendRead(request, reply, result);
  });
}
