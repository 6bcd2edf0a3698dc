import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { meteringOf } from '../../engine/metering';
import { retryAfterSeconds } from '../../engine/limits';

// Extension beyond the spec (docs/api.md "Credits and rate limits"): the caller's balance, open
// holds, rate limit and what is left of it. Bearer auth like every spec route; free (maxCost 0),
// so a caller at zero credits can still see why, but it counts against the rate limit.
export function registerAccountRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/social/account', {
    config: { spec: true, maxCost: 0 },
    handler: async (request, reply) => {
      const view = meteringOf(engine).account(request.apiUser!.id);
      const body = {
        status: 'success',
        user: { id: view.userId, name: view.name },
        credits: {
          available: view.balance.available,
          held: view.balance.pending,
          balance: view.balance.posted,
          granted_total: view.balance.creditsPosted,
          spent_total: view.balance.debitsPosted,
        },
        holds: view.holds.map((h) => ({ hold_id: h.holdId, job_id: h.jobId, amount: h.amount, posted: h.posted, remaining: h.remaining })),
        rate_limit: {
          limit: view.rate.limit,
          window_seconds: view.rate.windowMs / 1000,
          remaining: view.rate.remaining,
          reset_seconds: view.rate.resetMs > 0 ? retryAfterSeconds(view.rate.resetMs) : 0,
        },
      };
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
    },
  });
}
