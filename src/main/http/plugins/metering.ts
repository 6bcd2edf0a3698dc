import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine';
import '../request-context';

// PLACEHOLDER until the credits capability lands (issue 5): it admits every request and charges
// nothing. Its shape is the contract the routes code against:
// - registerMetering(app, engine): hooks for routes whose config has `spec: true`: limiter, then
//   the balance check against config.maxCost (402 before any work), RateLimit headers on replies.
// - chargeRequest(request, items): called by a route once its response is built; posts
//   max(1, items) credits for the request's user.
export function registerMetering(_app: FastifyInstance, _engine: Engine): void {}

export function chargeRequest(_request: FastifyRequest, _items: number): void {}
