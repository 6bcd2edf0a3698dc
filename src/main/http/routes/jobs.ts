import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine';
import { fail } from '../errors';
import { cancelJob, jobOfUser, jobStatusBody, notifyJobsChanged, parseRepliesJob, parseSearchJob, setListenerBaseUrl, submitJob } from '../../engine/jobs';
import { chargeRequest } from '../plugins/metering';
import { jobParams, registerJobBodyParsers } from './job-params';
import { ensurePost } from '../../engine/upstream/fetch-reads';
import { walkOf } from '../../engine/jobs/upstream/walk';
import { modeOf } from '../../engine/upstream/gateway';
import { requesterOf } from './spec-route';

// Spec 4.6, 4.7 and 4.8, and a cancel extension. Creating a job costs the request's price (1
// credit) and holds the job's largest cost (ledger README); polling and cancelling are free
// (maxCost 0) but count against the rate limit. docs/decisions.md "Jobs".

const json = 'application/json; charset=utf-8';

function userOf(request: FastifyRequest): number {
  if (!request.apiUser) throw fail.unauthorized('Missing API key: send Authorization: Bearer <API_KEY>.');
  return request.apiUser.id;
}

/** The base of data file URLs: the address the client used (the host check admitted it). */
function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`;
}

export function registerJobRoutes(app: FastifyInstance, engine: Engine): void {
  // Webhook bodies need the listener's real address (port 0 in tests, 7878 by default).
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') {
      const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
      setListenerBaseUrl(engine.db, `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
    }
  });

  void app.register(async (scope) => {
    registerJobBodyParsers(scope);
    const created = (jobId: number) => JSON.stringify({ status: 'success', job_id: jobId });

    scope.post('/social/tweets/:tweet_id/comments/asyncJob', {
      config: { spec: true, maxCost: 1 },
      handler: async (request, reply) => {
        const userId = userOf(request);
        const tweetId = (request.params as { tweet_id: string }).tweet_id;
        // Through an upstream the post may not be stored yet: its reply_count sets the hold.
        if (modeOf(engine) !== 'offline') await ensurePost(engine, requesterOf(request), tweetId, 'tweet_id');
        const parsed = parseRepliesJob(engine.db, tweetId, jobParams(request));
        const jobId = submitJob(engine, userId, 'replies', parsed, () => chargeRequest(request, 0));
        return reply.type(json).send(created(jobId));
      },
    });

    scope.post('/social/search/asyncJob', {
      config: { spec: true, maxCost: 1 },
      handler: async (request, reply) => {
        const userId = userOf(request);
        const parsed = parseSearchJob(jobParams(request));
        const jobId = submitJob(engine, userId, 'search', parsed, () => chargeRequest(request, 0));
        return reply.type(json).send(created(jobId));
      },
    });

    scope.get('/jobs/:job_id', {
      config: { spec: true, maxCost: 0 },
      handler: async (request, reply) => {
        const job = jobOfUser(engine.db, userOf(request), (request.params as { job_id: string }).job_id);
        return reply.type(json).send(JSON.stringify(jobStatusBody(job, baseUrlOf(request), walkOf(engine.db, job.id))));
      },
    });

    scope.post('/jobs/:job_id/cancel', {
      config: { spec: true, maxCost: 0 },
      handler: async (request, reply) => {
        const job = jobOfUser(engine.db, userOf(request), (request.params as { job_id: string }).job_id);
        cancelJob(engine.db, job.id, engine.clock.nowMs());
        notifyJobsChanged(engine.db);
        const now = jobOfUser(engine.db, job.user_id, String(job.id));
        return reply.type(json).send(JSON.stringify(jobStatusBody(now, baseUrlOf(request))));
      },
    });
  });
}
