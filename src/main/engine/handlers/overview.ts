import type { Overview } from '../../../shared/contract';
import { fail } from '../errors';
import type { Engine } from '../engine';
import { deletedJobMessage } from '../jobs/delete-job';
import { getJob, type JobRow } from '../jobs/job-row';
import { BUCKETS, computeOverview, DEFAULT_TOP, MAX_TOP, type Bucket } from '../overview';
import { idArg, intArg, oneOf, optionalIntArg, record, textArg } from './validate';

/** Whole-hour and half-hour zones run from UTC-12 to UTC+14. */
const MAX_OFFSET_MINUTES = 14 * 60;

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The overview of a search query's matches, of one user's posts in the corpus, or of the rows a
 * finished job wrote (the app's own read: free, like the search pages). Exactly one of `query`,
 * `user_id` and `job_id`. The app reads every job of this machine (handlers/jobs.ts: the analyst
 * owns them all), and so may describe any; the local API has no overview route.
 */
export function overviewOf(engine: Engine, raw: unknown): Overview {
  const args = record(raw);
  const scopes = (['query', 'user_id', 'job_id'] as const).filter((k) => given(args[k]));
  if (scopes.length !== 1) throw fail.invalid(scopes[1] ?? 'query', 'give exactly one of query, user_id and job_id.');
  const bucket = given(args.bucket) ? oneOf<Bucket>(args, 'bucket', BUCKETS) : undefined;
  const utcOffsetMinutes = optionalIntArg(args, 'utc_offset_minutes', -MAX_OFFSET_MINUTES, MAX_OFFSET_MINUTES) ?? 0;
  const top = optionalIntArg(args, 'top', 1, MAX_TOP) ?? DEFAULT_TOP;
  const options = { ...(bucket ? { bucket } : {}), utcOffsetMinutes, top };
  if (scopes[0] === 'query') {
    const query = textArg(args, 'query', 1024);
    return { scope: { query }, ...computeOverview(engine.db, { query }, options) };
  }
  if (scopes[0] === 'job_id') {
    const job = describableJob(engine, intArg(args, 'job_id', 1, Number.MAX_SAFE_INTEGER));
    return { scope: { job_id: job.id, search_query: searchOfJob(engine, job) }, ...computeOverview(engine.db, { jobId: job.id }, options) };
  }
  const userId = idArg(args, 'user_id');
  return { scope: { user_id: userId }, ...computeOverview(engine.db, { userId: BigInt(userId) }, options) };
}

/** A job whose rows can be described: finished, and created since job_posts records them (migration 066). */
function describableJob(engine: Engine, jobId: number): JobRow {
  const job = getJob(engine.db, jobId);
  if (!job) throw fail.notFound(`Job ${jobId} was not found.`);
  if (job.deleted_at_ms !== null) throw fail.gone(deletedJobMessage(job));
  if (job.status === 'pending' || job.status === 'processing') {
    throw fail.conflict(`Job ${jobId} has not finished yet: its overview describes the rows it wrote, once all are written.`);
  }
  if (job.status === 'error') {
    throw fail.conflict(`Job ${jobId} ${job.cancel_requested === 1 ? 'was cancelled' : 'failed'} and wrote no file, so it has no rows to describe.`);
  }
  if (job.records_posts !== 1) {
    throw fail.conflict(
      `Job ${jobId} ran before Skein recorded which posts a job writes, so its rows have no overview. ` +
        'Its file still holds them; a new job with the same parameters records its rows.',
    );
  }
  return job;
}

/** A search whose matches include every row of the job: a top-list click searches it AND the entry. */
function searchOfJob(engine: Engine, job: JobRow): string {
  const params = JSON.parse(job.params_json) as { query?: string; tweet_id?: string };
  if (job.kind === 'search') return String(params.query ?? '');
  // Every reply a reply job collects is in its post's conversation.
  const conversation = engine.db.prepare('SELECT conversation_id FROM posts WHERE id = ?').safeIntegers(true).pluck().get(BigInt(String(params.tweet_id))) as bigint | undefined;
  return `conversation_id:${conversation && conversation !== 0n ? conversation : String(params.tweet_id)}`;
}
