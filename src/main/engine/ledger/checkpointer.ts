import type { Db } from '../store/db';
import { nextCheckpoint, writeCheckpoint } from './checkpoint';
import { LOCK_TAKEN, WRITE_RETRY_MS, writeIfFree } from '../store/when-write-free';

// Keeps the ledger checkpoint near the newest transfer while the engine runs, so the next start
// re-derives about one interval's transfers, not everything charged since the last start (a
// server up for months at a few hundred charges a second would otherwise leave millions).

/** Between rounds: at 1,000 charges a second a start re-derives ~60,000 transfers (~35 ms). */
export const CHECKPOINT_EVERY_MS = 60_000;
/** Per step: ~25 ms of reading at 0.55 µs a transfer, then the event loop runs again. */
const STEP_TRANSFERS = 50_000;

export interface Checkpointer {
  stop(): void;
}

export function startCheckpointer(db: Db, nowMs: () => number, everyMs = CHECKPOINT_EVERY_MS): Checkpointer {
  let stopped = false;
  let busy = false;
  const step = () => {
    if (stopped || !db.open) return void (busy = false);
    try {
      const next = nextCheckpoint(db, STEP_TRANSFERS);
      if (next) return save(next, performance.now());
    } catch {
      // A closing database: the next round tries again.
    }
    busy = false;
  };
  // The write never waits for another connection's write lock (`skein import`) on the server's
  // thread, where it held every request with it: refused, it is tried again WRITE_RETRY_MS later,
  // for at most a round, then left to the next one (store/when-write-free.ts says why).
  const save = (next: NonNullable<ReturnType<typeof nextCheckpoint>>, sinceMs: number): void => {
    if (stopped || !db.open) return void (busy = false);
    try {
      const written = writeIfFree(db, () => writeCheckpoint(db, { ...next, nowMs: nowMs(), by: 'running' }));
      if (written === LOCK_TAKEN) {
        if (performance.now() - sinceMs < everyMs) return void setTimeout(() => save(next, sinceMs), WRITE_RETRY_MS).unref();
      } else if (written && next.seq - next.fromSeq === STEP_TRANSFERS) {
        // A full step means more is waiting: continue after the event loop's other work.
        return void setImmediate(step);
      }
    } catch {
      // A closing database, or a full disk: the next round tries again.
    }
    busy = false;
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    step();
  }, everyMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
