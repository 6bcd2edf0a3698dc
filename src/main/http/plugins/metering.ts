import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine';
import { fail, SkeinError } from '../../engine/errors';
import { rateLimitHeaders, type RateState } from '../../engine/limits';
import { type Metering, meteringOf } from '../../engine/metering';
import { CONNECTION_GONE_MESSAGE } from '../../engine/metering/group-commit';
import type { Reservation } from '../../engine/metering/reservations';
import '../request-context';
import { onSpecRoutes } from '../spec-hooks';

// Metering of spec routes (config `spec: true`), after auth has set request.apiUser:
// - onRequest (after auth's, before the body is read): the rate limit. Every request with a valid
//   key counts, whatever its parameters (a script that keeps sending bad requests is limited too);
//   a 429 does not count.
// - preHandler (after validation, so a bad parameter answers 422 rather than 402): the balance
//   against config.maxCost (default 1; 0 = free), 402 before any work.
// - the route calls chargeRequest(request, items) once its answer is built: max(1, items); reads
//   await chargeRequestGrouped() instead, which commits with the other charges of its group.
// - onSend: RateLimit-Policy and RateLimit headers on every spec response, errors included.
//   A successful spec response whose route never charged still costs 1 (the price's minimum).
// - onResponse / onRequestAbort: the reservation is released however the request ended.

export interface MeterState {
  metering: Metering;
  userId: number;
  rate?: RateState;
  reservation?: Reservation;
  charged: boolean;
  free: boolean;
}

export interface MeteringOptions {
  /** false only in the metering benchmark's baseline: no limit, no balance check, no charge. */
  enabled?: boolean;
}

export function registerMetering(app: FastifyInstance, engine: Engine, options: MeteringOptions = {}): void {
  // The state lives on the request (declared with the request's other fields, so every request has
  // one shape), not in a WeakMap keyed by it: each WeakMap entry is an ephemeron the garbage
  // collector traces on its own, one per request (bench "post details").
  app.decorateRequest('meter', null);
  if (options.enabled === false) return;
  const metering = meteringOf(engine);

  const release = (request: FastifyRequest) => request.meter?.reservation?.release();
  // Callback hooks on the spec routes only (spec-hooks.ts): no promise per hook per request on the
  // hot path (bench/api). A synchronous throw becomes the request's error, as a rejected promise would.
  onSpecRoutes(app, (config) => ({
    // onRequest, after auth's (spec-hooks.ts appends in registration order) and before the body is
    // read, as preParsing was: a route with no preParsing hook skips Fastify's preParsing runner
    // (bench/api).
    onRequest(request, _reply, done) {
      // Auth runs first and refuses a request without a valid key; this is the backstop.
      if (!request.apiUser) throw fail.unauthorized('Missing API key: send Authorization: Bearer <API_KEY>.');
      const state: MeterState = { metering, userId: request.apiUser.id, charged: false, free: config.maxCost === 0 };
      request.meter = state;
      state.rate = metering.admitRate(state.userId, request.apiUser.perMinuteLimit);
      done();
    },
    preHandler(request, _reply, done) {
      const state = request.meter;
      idempotencyKeyOf(request); // a malformed key is refused before any work
      if (state) state.reservation = metering.reserve(state.userId, config.maxCost, request.apiUser?.credits);
      done();
    },
    onSend(request, reply, payload, done) {
      const state = request.meter;
      if (!state) return done(null, payload);
      if (state.rate) reply.headers(rateLimitHeaders(state.rate));
      if (state.charged || state.free || !state.reservation || reply.statusCode >= 400) return done(null, payload);
      const charged = chargeRequestGrouped(request, 0);
      if (!charged) return done(null, payload);
      charged.then(
        () => done(null, payload),
        (err: unknown) => {
          // Only when another process spent the credits since the check; the answer is already built.
          request.log.warn({ err }, 'could not charge the minimum price of a response');
          done(null, payload);
        },
      );
    },
    onResponse(request, _reply, done) {
      release(request);
      done();
    },
    onRequestAbort(request, done) {
      release(request);
      done();
    },
  }));
  // Charges still queued for a group commit are written before the engine's database closes.
  app.addHook('onClose', async () => metering.flush());
}

/**
 * Posts the price of this request: max(1, items) credits (1 per post, user, space or article
 * returned). Call it once the answer is built, before returning it; it is synchronous, so it may
 * run inside the route's own transaction. A request that fails before this call costs nothing.
 * No-op for routes that are not metered (metering off, or not a spec route). Calling it twice
 * charges once.
 */
export function chargeRequest(request: FastifyRequest, items: number): void {
  const state = chargeable(request);
  if (!state) return;
  // Thrown inside the route's transaction: a job whose answer cannot be sent is not created either.
  if (!answerable(request)) throw new SkeinError('invalid', CONNECTION_GONE_MESSAGE);
  state.metering.charge({ userId: state.userId, reservation: state.reservation! }, items, memoOf(request));
}

/**
 * chargeRequest() for a route that is not inside a transaction of its own (the reads): the charge
 * joins the open group commit. Await it before sending the answer; it rejects with
 * payment_required like chargeRequest() throws. Undefined when there is nothing to charge.
 */
export function chargeRequestGrouped(request: FastifyRequest, items: number): Promise<unknown> | undefined {
  const state = chargeable(request);
  if (!state) return undefined;
  const admission = { userId: state.userId, reservation: state.reservation! };
  const key = idempotencyKeyOf(request);
  if (key === undefined) return state.metering.chargeGrouped(admission, items, memoOf(request), () => answerable(request));
  return state.metering.chargeWhenFree(admission, items, memoOf(request), key, () => {
    if (!answerable(request)) throw new SkeinError('invalid', CONNECTION_GONE_MESSAGE);
  });
}

/** At most this long: the ledger's transfer ids are 200 characters, and `idem:<user id>:` comes first. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 150;

/**
 * An `Idempotency-Key` header on a read (an extension, docs/api.md): the same key from the same API
 * user is charged once, however often the request is repeated (a downstream Skein killed while the
 * answer was on its way asks again). A malformed key is a 422, before any work.
 */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(raw)) {
    throw fail.invalid('Idempotency-Key', `give one key of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters without spaces.`);
  }
  return raw;
}

/**
 * Whether the answer can still be sent. Node's parser refuses the bytes after a request whose
 * route already runs (a GET is routed before its body arrives; a body longer than its
 * Content-Length is read as a next request) and the refusal closes the connection: the client is
 * told "Malformed HTTP request" (400), so that route's charge, and a job it creates, must not
 * stand (issue 13, found by test/sim/http-fuzz.sim.test.ts). The same for a client that hung up.
 */
function answerable(request: FastifyRequest): boolean {
  const socket = request.raw.socket as { destroyed?: boolean } | null;
  return socket !== null && socket.destroyed !== true;
}

/** The request's metering state when it still has to be charged; marks it charged. */
function chargeable(request: FastifyRequest): MeterState | undefined {
  const state = request.meter;
  if (!state || state.charged || state.free || !state.reservation) return undefined;
  state.charged = true;
  return state;
}

/** The memo names the path without its query (a cursor can be long); 200 characters at most. */
const memoOf = (request: FastifyRequest) => `${request.method} ${request.url.split('?')[0]}`.slice(0, 200);
