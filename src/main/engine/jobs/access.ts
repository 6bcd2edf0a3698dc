import { fail } from '../errors';
import type { Db } from '../store/db';
import { deletedJobMessage } from './delete-job';
import { getJob, type JobRow } from './job-row';

/**
 * A job as its owner sees it: 422 for a malformed id, 404 unknown, 403 another user's (spec 4.8),
 * 410 deleted (its owner deleted it: Jobs > Delete job, DELETE /jobs/<id>).
 */
export function jobOfUser(db: Db, userId: number, jobIdRaw: unknown): JobRow {
  const text = typeof jobIdRaw === 'number' ? String(jobIdRaw) : jobIdRaw;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) throw fail.invalid('job_id', 'expected a whole number.');
  const job = getJob(db, Number(text));
  if (!job) throw fail.notFound(`Job ${text} was not found.`);
  if (job.user_id !== userId) throw fail.forbidden(`Job ${text} belongs to another user.`);
  if (job.deleted_at_ms !== null) throw fail.gone(deletedJobMessage(job));
  return job;
}
