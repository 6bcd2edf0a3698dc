import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail } from '../errors';
import { parseJsonExact } from '../../engine/serialize/json';
import type { RawParams } from '../../engine/jobs';

// Parameter transport of the job-creating endpoints (the spec leaves it open; docs/decisions.md
// "Job parameters"): the query string, a JSON body, or a form body, alone or together. A
// parameter given in two places must have the same value there, or it is a 422.

/** Body parsers of the jobs scope: JSON without rounding big ids, and HTML-form bodies. */
export function registerJobBodyParsers(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, parseJsonExact(text));
    } catch (err) {
      done(fail.invalid('body', `not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, formObject(new URLSearchParams(String(body))));
  });
}

// Objects without a prototype: a parameter named __proto__ (in a JSON or form body) is then an
// ordinary key, refused as unknown, instead of setting the object's prototype, through which
// {"__proto__": {"query": ..., "max_count": 3, "bogus": 1}} made a job and hid "bogus" (issue 13).
const params = (): RawParams => Object.create(null) as RawParams;

function formObject(params_: URLSearchParams): RawParams {
  const out = params();
  for (const [k, v] of params_) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...(prev as unknown[]), v] : [prev, v];
  }
  return out;
}

const same = (a: unknown, b: unknown): boolean => String(a) === String(b);

/**
 * The parameter checks read a value with String() (the query string's and the body's are compared
 * so, too), which throws on {"toString": "TOP"} (no function to call) and on a list nested past the
 * stack: a TypeError or RangeError, so a 500 (issue 13, found by test/sim/http-fuzz.sim.test.ts).
 * Such a value is refused here, naming its parameter; any other goes on to the checks as before.
 */
function checkValue(name: string, v: unknown): void {
  if (v === null || typeof v !== 'object') return;
  try {
    String(v);
  } catch {
    throw fail.invalid(name, 'expected one value (text, a number, true or false), not an object.');
  }
}

/** The request's parameters from the query string and the body, merged. */
export function jobParams(request: FastifyRequest): RawParams {
  const query = (request.query ?? {}) as RawParams;
  const body = request.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw fail.invalid('body', 'expected a JSON object of parameters, e.g. {"query": "from:alice", "max_count": 100}.');
  }
  const merged = Object.assign(params(), query);
  for (const [k, v] of Object.entries((body ?? {}) as RawParams)) {
    checkValue(k, v);
    if (k in merged && !same(merged[k], v)) throw fail.invalid(k, 'given twice with different values (query string and body).');
    merged[k] = v;
  }
  return merged;
}
