import type { Db } from '../store/db';
import { utcTime } from './file-state';
import { applyRetention, type RetentionRun } from './retention';
import { sizeText, policyText, retentionPolicy } from './retention-policy';

// Runs the retention setting where the server runs (started with the job runner, so `skein serve`
// and the desktop app both have it, and short CLI commands never delete anything by opening the
// data dir): once at start, every hour, and right after each job that ends with a file. Hourly,
// because the coarsest setting is a day: a file is kept at most one hour past its N days, and a
// sweep is one indexed query plus a stat per kept file (~1 ms for 1,000 files).

export const RETENTION_EVERY_MS = 3_600_000;

export interface RetentionSweeper {
  /** One sweep now; never throws (a busy or full database is tried again at the next one). */
  sweep(): RetentionRun | null;
  stop(): void;
}

export interface RetentionOptions {
  everyMs?: number;
  /** Where a sweep says what it deleted (default: stdout, the server's log). */
  log?: (line: string) => void;
}

export function startRetention(db: Db, dataDir: string, nowMs: () => number, options: RetentionOptions = {}): RetentionSweeper {
  const log = options.log ?? ((line: string) => console.log(line));
  let stopped = false;
  let lastFailure: string | null = null;
  const sweep = (): RetentionRun | null => {
    if (stopped || !db.open) return null;
    try {
      const policy = retentionPolicy(db);
      if (policy.keep === 'all') return { deleted: [], skipped: [] };
      const run = applyRetention(db, dataDir, nowMs(), policy);
      lastFailure = null;
      for (const line of retentionLog(run, policyText(policy))) log(line);
      return run;
    } catch (err) {
      const message = (err as Error).message;
      if (message !== lastFailure) log(`Skein: the exports retention could not run (${message}); it tries again in an hour.`);
      lastFailure = message;
      return null;
    }
  };
  sweep();
  const everyMs = options.everyMs ?? RETENTION_EVERY_MS;
  const timer = everyMs > 0 ? setInterval(sweep, everyMs) : null;
  timer?.unref();
  return {
    sweep,
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}

/** The log lines of a sweep: nothing when it did nothing. */
export function retentionLog(run: RetentionRun, policy: string): string[] {
  const lines: string[] = [];
  if (run.deleted.length) {
    const bytes = run.deleted.reduce((s, d) => s + d.bytes, 0);
    const names = run.deleted.map((d) => `${d.file_name} (job ${d.job_id})`).join(', ');
    lines.push(`Skein: exports retention (${policy}) deleted ${run.deleted.length} ${run.deleted.length === 1 ? 'file' : 'files'}, ${sizeText(bytes)}, at ${utcTime(run.deleted[0]!.deleted_ms)}: ${names}. The jobs and their charges stay.`);
  }
  for (const s of run.skipped) lines.push(`Skein: exports retention left ${s.file_name} (job ${s.job_id}) for its next sweep: ${s.why}.`);
  return lines;
}
