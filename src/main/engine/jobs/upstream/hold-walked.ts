import type { Db } from '../../store/db';
import { countReplies } from '../../search/replies';
import { countTimeline } from '../kinds/timeline';
import { topUpJobHold } from '../billing';
import { getJob, JobStateError, type JobRow } from '../job-row';
import { MAX_MAX_COUNT } from '../limits';
import type { RepliesParams, TimelineParams } from '../params';
import { walkOf } from './walk';

// A reply job without max_count holds, at creation, what could be counted then: the post's
// reply_count as the upstream reported it, which counts direct replies only. Its walk then stores
// the conversation, and the job would write the levels 1 and 2 it finds there (5,050 where
// reply_count said 5,000) but stop at its hold. So once the walk is done, the hold grows to what
// the corpus now holds for the job, as far as the user's balance goes, and the job's total with it
// (docs/decisions.md "Upstream: jobs"). A timeline job without max_count likewise holds the user's
// statuses_count as the upstream reported it, which the timeline it walked may pass.

/** What the job would now write from the corpus, or null for a job with a cap (max_count). */
function storedForJob(db: Db, job: JobRow): number | null {
  if (job.kind === 'replies') {
    const params = JSON.parse(job.params_json) as RepliesParams;
    if (params.max_count !== undefined) return null;
    return countReplies(db, { tweetId: BigInt(params.tweet_id), ...(params.since_id ? { sinceId: BigInt(params.since_id) } : {}) }, MAX_MAX_COUNT);
  }
  if (job.kind === 'timeline') {
    const params = JSON.parse(job.params_json) as TimelineParams;
    return params.max_count !== undefined ? null : countTimeline(db, BigInt(params.user_id), params.timeline, MAX_MAX_COUNT);
  }
  return null;
}

/** Returns the job as it now is; a job this does not concern is returned unchanged. */
export function holdWhatTheWalkStored(db: Db, job: JobRow, workerId: string, nowMs: number): JobRow {
  if (job.kind === 'search' || job.progress_total === null || !walkOf(db, job.id)) return job;
  const stored = storedForJob(db, job);
  if (stored === null || stored <= job.progress_total) return job;
  db.transaction(() => {
    const locked = db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND status = 'processing' AND locked_by = ?`).get(job.id, workerId);
    if (!locked) throw new JobStateError(`job ${job.id}: lock lost before its hold was raised`);
    const added = topUpJobHold(db, job.user_id, job.id, stored - job.progress_total!, nowMs);
    db.prepare('UPDATE jobs SET held_credits = held_credits + ?, progress_total = progress_total + ?, updated_at_ms = ? WHERE id = ?').run(added, added, nowMs, job.id);
  })();
  return getJob(db, job.id)!;
}
