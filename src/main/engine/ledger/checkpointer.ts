import type { Db } from '../store/db';
import { advanceCheckpoint } from './checkpoint';

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
      // A full step means more is waiting: continue after the event loop's other work.
      if (advanceCheckpoint(db, nowMs(), STEP_TRANSFERS) === STEP_TRANSFERS) return void setImmediate(step);
    } catch {
      // SQLITE_BUSY under another writer, or a closing database: the next round tries again.
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
