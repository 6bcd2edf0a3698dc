import type { Db } from '../../store/db';
import { countReplies } from '../../search/replies';
import { topUpJobHold } from '../billing';
import { getJob, JobStateError, type JobRow } from '../job-row';
import { MAX_MAX_COUNT } from '../limits';
import type { RepliesParams } from '../params';
import { walkOf } from './walk';

// A reply job without max_count holds, at creation, what could be counted then: the post's
// reply_count as the upstream reported it, which counts direct replies only. Its walk then stores
// the conversation, and the job would write the levels 1 and 2 it finds there (5,050 where
// reply_count said 5,000) but stop at its hold. So once the walk is done, the hold grows to what
// the corpus now holds for the job, as far as the user's balance goes, and the job's total with it
// (docs/decisions.md "Upstream: jobs").

/** Returns the job as it now is; a job this does not concern is returned unchanged. */
export function holdWhatTheWalkStored(db: Db, job: JobRow, workerId: string, nowMs: number): JobRow {
  if (job.kind !== 'replies' || !walkOf(db, job.id)) return job;
  const params = JSON.parse(job.params_json) as RepliesParams;
  if (params.max_count !== undefined || job.progress_total === null) return job;
  const request = { tweetId: BigInt(params.tweet_id), ...(params.since_id ? { sinceId: BigInt(params.since_id) } : {}) };
  const stored = countReplies(db, request, MAX_MAX_COUNT);
  if (stored <= job.progress_total) return job;
  db.transaction(() => {
    const locked = db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND status = 'processing' AND locked_by = ?`).get(job.id, workerId);
    if (!locked) throw new JobStateError(`job ${job.id}: lock lost before its hold was raised`);
    const added = topUpJobHold(db, job.user_id, job.id, stored - job.progress_total!, nowMs);
    db.prepare('UPDATE jobs SET held_credits = held_credits + ?, progress_total = progress_total + ?, updated_at_ms = ? WHERE id = ?').run(added, added, nowMs, job.id);
  })();
  return getJob(db, job.id)!;
}
