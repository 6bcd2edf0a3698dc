import { hostname } from 'node:os';
import { inWriteTx } from '../../ledger/tx';
import type { Db } from '../../store/db';
import { finishJob } from './finish';

// A lock names its holder as "<host>:<pid>:<runner nonce>:<worker slot>". A holder on this machine whose process is
// gone (a crash, kill -9) lost the job: it goes back to pending at once, and resumes from its
// checkpoint. A holder that is alive but silent for STALE_LOCK_MS (hung, or on another host
// sharing the folder) loses it too.
//
// Each claim counts an attempt (claim.ts), so a job whose process died has used the attempt it
// was on, unless that attempt committed something (attempt_progress, migration 058): then it is
// given back. Once attempts that committed nothing reach max_attempts the job ends in error here
// instead of going back to pending: before, a job that crashed its process every time came back
// forever (attempts 6, 7, 8 were seen with max_attempts 5).

/** This runner's identity; each worker slot appends `:<slot>`. */
export function runnerOwner(nonce: string): string {
  return `${hostname()}:${process.pid}:${nonce}`;
}

const runnerOf = (lockedBy: string): string => lockedBy.split(':').slice(0, 3).join(':');

function holderIsDead(lockedBy: string, selfRunner: string): boolean {
  const [host, pidText, nonce] = lockedBy.split(':');
  const [selfHost, selfPid, selfNonce] = selfRunner.split(':');
  if (host !== selfHost) return false;
  // Our own process but an earlier runner (a stopped and restarted runner in one process).
  if (pidText === selfPid) return nonce !== selfNonce;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * processing -> pending for every job whose lock holder is dead or silent, or processing -> error
 * when that was its last attempt. Returns the job ids taken back (either way).
 */
export function recoverStaleLocks(db: Db, selfRunner: string, nowMs: number, staleAfterMs: number): number[] {
  const rows = db.prepare(`SELECT id, locked_by, locked_at_ms FROM jobs WHERE status = 'processing'`).all() as {
    id: number;
    locked_by: string | null;
    locked_at_ms: number | null;
  }[];
  const recovered: number[] = [];
  for (const r of rows) {
    // This runner's own jobs are never taken back here: it knows they are running (a long XLSX
    // build commits nothing for minutes).
    if (r.locked_by !== null && runnerOf(r.locked_by) === selfRunner) continue;
    const dead = r.locked_by === null || holderIsDead(r.locked_by, selfRunner);
    const silent = (r.locked_at_ms ?? 0) < nowMs - staleAfterMs;
    if ((dead || silent) && takeBack(db, r.id, r.locked_by, dead, nowMs)) recovered.push(r.id);
  }
  return recovered;
}

/** One job, in one transaction; false when its lock changed since it was read (someone else took it). */
function takeBack(db: Db, jobId: number, lockedBy: string | null, dead: boolean, nowMs: number): boolean {
  return inWriteTx(db, () => {
    const job = db
      .prepare(`SELECT user_id, attempts, max_attempts, attempt_progress FROM jobs WHERE id = ? AND status = 'processing' AND locked_by IS ?`)
      .get(jobId, lockedBy) as { user_id: number; attempts: number; max_attempts: number; attempt_progress: number } | undefined;
    if (!job) return false;
    if (job.attempt_progress === 1) {
      // The attempt committed rows or pages before its process died: it is given back, so a job
      // killed while it works (ten SIGKILLs during a long walk) resumes however often.
      db.prepare(
        `UPDATE jobs SET status = 'pending', attempts = max(0, attempts - 1), locked_by = NULL, locked_at_ms = NULL, run_at_ms = ?, updated_at_ms = ?,
           last_error = coalesce(last_error, 'The process running this job stopped; resumed from its last checkpoint.')
         WHERE id = ?`,
      ).run(nowMs, nowMs, jobId);
      return true;
    }
    if (job.attempts >= job.max_attempts) {
      const how = dead ? 'stopped' : 'stopped answering';
      const message = `The process running this job ${how} during attempt ${job.attempts} of ${job.max_attempts} before committing anything, as in every attempt that used one up; giving up. Retry the job to try again.`;
      db.prepare(`UPDATE jobs SET status = 'error', last_error = ? WHERE id = ?`).run(message, jobId);
      // The same end as any failure (fail.ts): lock cleared, finished_at set, the rest of the credit
      // hold voided, the job_finished webhook queued.
      finishJob(db, jobId, job.user_id, nowMs);
      return true;
    }
    db.prepare(
      `UPDATE jobs SET status = 'pending', locked_by = NULL, locked_at_ms = NULL, run_at_ms = ?, updated_at_ms = ?,
         last_error = coalesce(last_error, 'The process running this job stopped; resumed from its last checkpoint.')
       WHERE id = ?`,
    ).run(nowMs, nowMs, jobId);
    return true;
  });
}
