import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine';
import { fail } from '../errors';
import { cancelJob, deleteJob, jobOfUser, jobStatusBody, notifyJobsChanged, parseRepliesJob, parseSearchJob, parseTimelineJob, setListenerBaseUrl, submitJob } from '../../engine/jobs';
import { parseNumericId } from '../../engine/reads/params';
import { chargeRequest } from '../plugins/metering';
import { jobParams, registerJobBodyParsers } from './job-params';
import { ensurePost, ensureUser } from '../../engine/upstream/fetch-reads';
import { walkOf } from '../../engine/jobs/upstream/walk';
import { modeOf } from '../../engine/upstream/gateway';
import { requesterOf } from './spec-route';
import { whenWriteFree } from '../../engine/store/when-write-free';

// Spec 4.6, 4.7 and 4.8, and our extensions: a timeline job (issue 15), cancel and delete.
// Creating a job costs the request's price (1 credit) and holds the job's largest cost (ledger
// README); polling, cancelling and deleting are free (maxCost 0) but count against the rate limit.
// docs/decisions.md "Jobs".

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
        const jobId = await whenWriteFree(engine.db, () => submitJob(engine, userId, 'replies', parsed, () => chargeRequest(request, 0)));
        return reply.type(json).send(created(jobId));
      },
    });

    scope.post('/social/search/asyncJob', {
      config: { spec: true, maxCost: 1 },
      handler: async (request, reply) => {
        const userId = userOf(request);
        const parsed = parseSearchJob(jobParams(request));
        const jobId = await whenWriteFree(engine.db, () => submitJob(engine, userId, 'search', parsed, () => chargeRequest(request, 0)));
        return reply.type(json).send(created(jobId));
      },
    });

    // A user's timeline to a file (issue 15; our extension), at the timeline's own path with
    // /asyncJob, as the spec's two kinds are: spec 4.1 posts, 4.2 posts and replies. The user by
    // numeric id only, as the timeline reads take it (docs/decisions.md "Jobs: a user's timeline").
    for (const timeline of ['tweets', 'tweets-and-replies'] as const) {
      scope.post(`/social/user/:user_id/${timeline}/asyncJob`, {
        config: { spec: true, maxCost: 1 },
        handler: async (request, reply) => {
          const userId = userOf(request);
          const target = (request.params as { user_id: string }).user_id;
          const viaUpstream = modeOf(engine) !== 'offline';
          // Through an upstream the user may not be stored yet: its statuses_count sets the hold.
          if (viaUpstream) await ensureUser(engine, requesterOf(request), parseNumericId('user_id', target).toString());
          const parsed = parseTimelineJob(engine.db, target, timeline, jobParams(request), viaUpstream);
          const jobId = await whenWriteFree(engine.db, () => submitJob(engine, userId, 'timeline', parsed, () => chargeRequest(request, 0)));
          return reply.type(json).send(created(jobId));
        },
      });
    }

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
        await whenWriteFree(engine.db, () => cancelJob(engine.db, job.id, engine.clock.nowMs()));
        notifyJobsChanged(engine.db);
        const now = jobOfUser(engine.db, job.user_id, String(job.id));
        return reply.type(json).send(JSON.stringify(jobStatusBody(now, baseUrlOf(request))));
      },
    });

    // Our extension (issue 15): the owner deletes a finished job and its data file; the ledger's
    // transfers stay. 409 while it runs (cancel it first), 410 once deleted.
    scope.delete('/jobs/:job_id', {
      config: { spec: true, maxCost: 0 },
      handler: async (request, reply) => {
        const job = jobOfUser(engine.db, userOf(request), (request.params as { job_id: string }).job_id);
        const deleted = await whenWriteFree(engine.db, () => deleteJob(engine.db, engine.dataDir, job.id, engine.clock.nowMs()));
        notifyJobsChanged(engine.db);
        return reply.type(json).send(
          JSON.stringify({
            status: 'success',
            job_id: deleted.job_id,
            deleted_at: new Date(deleted.deleted_ms).toISOString(),
            file_deleted: deleted.file_name,
            bytes_freed: deleted.bytes,
          }),
        );
      },
    });
  });
}
