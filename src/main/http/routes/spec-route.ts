import type { FastifyReply, FastifyRequest, FastifySchemaValidationError, preValidationHookHandler } from 'fastify';
import { fail } from '../errors';
import { toJson } from '../../engine/serialize/json';
import type { JsonReadResult, ReadResult } from '../../engine/reads/result';
import { chargeRequestGrouped } from '../plugins/metering';

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
