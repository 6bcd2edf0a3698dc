import type { Db } from '../store/db';
import { removeStaged } from './finalize';
import type { JobRow } from './job-row';
import { failJob, type FailHow } from './queue/fail';

// A full disk under the runner (issue 13): failJob writes to SQLite, and on a full disk that write
// fails too (SQLITE_FULL). Thrown from a worker's message handler or a timer, it ended the whole
// server, reads and all. The runner's writes go through here instead: a refused one is said once
// on stderr and tried again on every poll, and the server keeps serving.

export interface RunFault {
  message: string;
  how: FailHow;
}

/**
 * A run ended in a fault that could not be recorded (failJob itself failed). It carries how the run
 * meant to end, so the runner (main thread) can record it once SQLite writes again.
 */
export class UnsettledRunError extends Error {
  override name = 'UnsettledRunError';
  constructor(
    readonly settle: RunFault,
    cause: unknown,
  ) {
    super(`the end of the run could not be recorded: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

export interface Settler {
  /** Records how a run ended (failJob); never throws. A refused record is kept and tried again by retry(). */
  settle(job: JobRow, workerId: string, fault: RunFault): void;
  /** Tries the kept records again (every poll). Until one succeeds, its job stays processing under
   *  this runner's lock: no one else takes it, and a new process takes it back at its start (recover.ts). */
  retry(): void;
  /** A step of the runner's own bookkeeping (a claim, a recovery, a webhook): a failure is said once
   *  per kind, until the step works again, and gives undefined. */
  guard<T>(what: string, step: () => T): T | undefined;
}

export function createSettler(db: Db, dataDir: string, nowMs: () => number): Settler {
  const kept = new Map<number, { job: JobRow; workerId: string; fault: RunFault }>();
  const said = new Set<string>();
  const settler: Settler = {
    settle(job, workerId, fault) {
      if (!db.open) return;
      try {
        if (failJob(db, job.id, workerId, fault.message, fault.how, nowMs()) === 'error') removeStaged(dataDir, job);
        kept.delete(job.id);
      } catch (err) {
        if (!kept.has(job.id)) {
          console.error(
            `Skein: job ${job.id} stopped but its state could not be saved (${(err as Error).message}); it stays as it is and is saved once the database can write again. Why it stopped: ${fault.message}`,
          );
        }
        kept.set(job.id, { job, workerId, fault });
      }
    },
    retry() {
      for (const k of [...kept.values()]) settler.settle(k.job, k.workerId, k.fault);
    },
    guard(what, step) {
      try {
        const value = step();
        said.delete(what);
        return value;
      } catch (err) {
        if (!said.has(what)) console.error(`Skein: cannot ${what} (${(err as Error).message}); trying again every poll.`);
        said.add(what);
        return undefined;
      }
    },
  };
  return settler;
}
