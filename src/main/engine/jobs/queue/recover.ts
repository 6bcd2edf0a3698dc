import { hostname } from 'node:os';
import type { Db } from '../../store/db';

// A lock names its holder as "<host>:<pid>:<runner nonce>:<worker slot>". A holder on this machine whose process is
// gone (a crash, kill -9) lost the job: it goes back to pending at once, and resumes from its
// checkpoint. A holder that is alive but silent for STALE_LOCK_MS (hung, or on another host
// sharing the folder) loses it too.

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

/** processing -> pending for every job whose lock holder is dead or silent. Returns the job ids. */
export function recoverStaleLocks(db: Db, selfRunner: string, nowMs: number, staleAfterMs: number): number[] {
  const rows = db.prepare(`SELECT id, locked_by, locked_at_ms FROM jobs WHERE status = 'processing'`).all() as {
    id: number;
    locked_by: string | null;
    locked_at_ms: number | null;
  }[];
  const recovered: number[] = [];
  const release = db.prepare(
    `UPDATE jobs SET status = 'pending', locked_by = NULL, locked_at_ms = NULL, run_at_ms = ?, updated_at_ms = ?,
       last_error = coalesce(last_error, 'The process running this job stopped; resumed from its last checkpoint.')
     WHERE id = ? AND status = 'processing' AND locked_by IS ?`,
  );
  for (const r of rows) {
    // This runner's own jobs are never taken back here: it knows they are running (a long XLSX
    // build commits nothing for minutes).
    if (r.locked_by !== null && runnerOf(r.locked_by) === selfRunner) continue;
    const dead = r.locked_by === null || holderIsDead(r.locked_by, selfRunner);
    const silent = (r.locked_at_ms ?? 0) < nowMs - staleAfterMs;
    if (dead || silent) {
      if (release.run(nowMs, nowMs, r.id, r.locked_by).changes === 1) recovered.push(r.id);
    }
  }
  return recovered;
}
