import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Engine } from '../engine';
import { WebhookDispatcher } from '../webhooks/dispatcher';
import type { JobRow } from './job-row';
import { STALE_LOCK_MS } from './limits';
import type { FromWorker, ToWorker, WorkerData } from './messages';
import { notifyJobsChanged, onJobsChanged } from './notify';
import { claimNextJob } from './queue/claim';
import { createSettler, UnsettledRunError } from './unsettled';
import { recoverStaleLocks, runnerOwner } from './queue/recover';
import { releaseLocks } from './queue/release';
import { runJob } from './run-job';
import { walkOf } from './upstream/walk';
import { startRetention } from '../exports/retention-timer';
import { prep } from '../ledger/prep';
import { LOCK_TAKEN, retryTimer, writeIfFree } from '../store/when-write-free';
import type { XlsxOptions } from './writers/xlsx';

/** How long a graceful stop waits for running jobs to reach a batch boundary. */
const STOP_WAIT_MS = 5_000;

export interface JobRunnerOptions {
  /** 'thread' (default): each job runs in a worker thread with its own connection. 'inline': on
   *  this thread, yielding between batches (tests and tools; the same runJob code path). */
  mode?: 'thread' | 'inline';
  /** Jobs at once: 2, so a short job is not stuck behind a million-row export (2 cores). */
  concurrency?: number;
  /** How often to look for runnable jobs (retries whose backoff ended, jobs from another process). */
  pollMs?: number;
  /** The worker script; default: job-worker.js next to the bundle, or worker-entry.ts in sources. */
  workerFile?: string;
  nativeBinding?: string;
  batchRows?: number;
  xlsx?: XlsxOptions;
  webhookTimeoutMs?: number;
  /** Progress events (rows committed), for the app's live view. */
  onProgress?: (jobId: number, rows: number) => void;
  onFinished?: (jobId: number, outcome: string) => void;
  /** How often the exports retention setting is applied (default hourly; 0: only at start and after jobs). */
  retentionEveryMs?: number;
  /** Where the runner says what the retention deleted (default: stdout). */
  log?: (line: string) => void;
}

export interface JobRunner {
  /** Looks for work now (also done on every poll and whenever a job is created). */
  poke(): void;
  /** Resolves when no job is runnable or running and no webhook is in flight (tests). */
  idle(): Promise<void>;
  /** Stops taking jobs, gives running jobs back to the queue at their checkpoint, ends the workers. */
  stop(): Promise<void>;
  readonly webhooks: WebhookDispatcher;
}

interface Slot {
  index: number;
  worker?: Worker;
  running?: { jobId: number; done: Promise<void> };
}

/** out/main/job-worker.js next to the bundle (or one level up from a chunk), else the TS source. */
export function defaultWorkerFile(): string {
  for (const built of [join(__dirname, 'job-worker.js'), join(__dirname, '..', 'job-worker.js')]) {
    if (existsSync(built)) return built;
  }
  return join(__dirname, 'worker-entry.ts');
}

/** Starts the job runner of an engine: call once per process after the engine is created. */
export function startJobRunner(engine: Engine, options: JobRunnerOptions = {}): JobRunner {
  const { db, clock } = engine;
  const mode = options.mode ?? 'thread';
  const owner = runnerOwner(engine.ids.randomHex(6));
  const slots: Slot[] = Array.from({ length: Math.max(1, options.concurrency ?? 2) }, (_, index) => ({ index }));
  // Signing secrets kept in the keychain are read there, on this thread, at each delivery.
  const webhooks = new WebhookDispatcher(db, clock, { keychain: engine.keychain, ...(options.webhookTimeoutMs ? { timeoutMs: options.webhookTimeoutMs } : {}) });
  let stopping = false;
  let ticking = false;
  const waiters: (() => void)[] = [];
  // The runner's writes that a full disk can refuse (unsettled.ts): never thrown out of a handler.
  const settler = createSettler(db, engine.dataDir, () => clock.nowMs());
  const kickWebhooks = () => settler.guard('send webhooks', () => webhooks.kick());

  webhooks.failInterrupted();
  recoverStaleLocks(db, owner, clock.nowMs(), STALE_LOCK_MS);
  // The exports retention setting (exports/retention-timer.ts): at start, hourly, after each file.
  const retention = startRetention(db, engine.dataDir, () => clock.nowMs(), {
    ...(options.retentionEveryMs !== undefined ? { everyMs: options.retentionEveryMs } : {}),
    ...(options.log ? { log: options.log } : {}),
  });

  const finished = (jobId: number, outcome: string) => {
    options.onFinished?.(jobId, outcome);
    if (outcome === 'success') retention.sweep();
    kickWebhooks();
  };

  function workerFor(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const file = options.workerFile ?? defaultWorkerFile();
    const data: WorkerData = {
      dataDir: engine.dataDir,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.batchRows ? { batchRows: options.batchRows } : {}),
      ...(options.xlsx ? { xlsx: options.xlsx } : {}),
      // The engine connection's checkpoint setting: 0 under a WAL checkpointer, so job commits
      // leave checkpoints to it too (store/wal-checkpointer.ts).
      walAutocheckpoint: db.pragma('wal_autocheckpoint', { simple: true }) as number,
    };
    // From sources (tests), the TypeScript entry is loaded through tsx's require hook; Node 20's
    // workers do not take --import loaders from execArgv.
    const worker = file.endsWith('.ts')
      ? new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`, { eval: true, workerData: data })
      : new Worker(file, { workerData: data });
    worker.unref();
    slot.worker = worker;
    return worker;
  }

  function runInThread(slot: Slot, job: JobRow, workerId: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const worker = workerFor(slot);
      const end = (outcome: string) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve();
        finished(job.id, outcome);
      };
      const onMessage = (m: FromWorker) => {
        if (m.type === 'progress') options.onProgress?.(m.jobId, m.rows);
        else if (m.type === 'done') end(m.outcome);
        else {
          settler.settle(job, workerId, m.settle ?? { message: `Internal error while running the job: ${m.message}`, how: 'retry' });
          end('pending');
        }
      };
      // A worker that dies (out of memory, a native fault) takes its job's attempt with it; the job
      // goes back to pending at its checkpoint and a fresh worker takes the slot.
      const onError = (err: Error) => {
        slot.worker = undefined;
        settler.settle(job, workerId, { message: `The job's worker stopped: ${err.message}`, how: 'retry' });
        end('pending');
      };
      const onExit = (code: number) => onError(new Error(`exit code ${code}`));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      keyFor(job).then(
        (upstreamKey) => worker.postMessage({ type: 'run', job, workerId, upstreamKey } satisfies ToWorker),
        (err: unknown) => onError(new Error(`cannot read the upstream key: ${(err as Error).message}`)),
      );
    });
  }

  /** The upstream key for a job still walking the upstream; null for every other job (none is read). */
  async function keyFor(job: JobRow): Promise<string | null> {
    const walk = walkOf(db, job.id);
    if (!walk || walk.done) return null;
    // A keychain that fails to answer leaves the walk without a key: it ends the job saying so.
    return engine.upstreamKeys.get().catch(() => null);
  }

  async function runInline(job: JobRow, workerId: string): Promise<void> {
    const ctx = {
      upstreamKey: await keyFor(job),
      db,
      dataDir: engine.dataDir,
      clock,
      ids: engine.ids,
      workerId,
      ...(options.batchRows ? { batchRows: options.batchRows } : {}),
      ...(options.xlsx ? { xlsx: options.xlsx } : {}),
      between: () => new Promise<void>((r) => setImmediate(r)),
      stopRequested: () => stopping,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    };
    let outcome: string;
    try {
      outcome = await runJob(ctx, job);
    } catch (err) {
      // runJob settles its own failures; this is a fault outside them (the database closed, or SQLite
      // refusing to record the end on a full disk: UnsettledRunError says how the run meant to end).
      outcome = 'pending';
      settler.settle(job, workerId, err instanceof UnsettledRunError ? err.settle : { message: `Internal error while running the job: ${(err as Error).message}`, how: 'retry' });
    }
    finished(job.id, outcome);
  }

  function tick(): void {
    if (stopping || ticking || !db.open) return;
    ticking = true;
    try {
      for (const slot of slots) {
        if (slot.running) continue;
        const workerId = `${owner}:${slot.index}`;
        // Read first, so an idle runner never asks for the write lock; then claimed only if the
        // lock is free now. Another connection holding it (`skein import`) is tried again
        // WRITE_RETRY_MS later, off the event loop (store/when-write-free.ts says why).
        const job = settler.guard('take a job from the queue', () => (runnable() ? writeIfFree(db, () => claimNextJob(db, workerId, clock.nowMs())) : undefined));
        if (job === LOCK_TAKEN) {
          retry.soon();
          break;
        }
        if (!job) break;
        const done = (mode === 'inline' ? runInline(job, workerId) : runInThread(slot, job, workerId)).finally(() => {
          slot.running = undefined;
          tick();
        });
        slot.running = { jobId: job.id, done };
      }
    } finally {
      ticking = false;
    }
    checkIdle();
  }

  const retry = retryTimer(tick);

  function runnable(): boolean {
    const row = prep(db, `SELECT 1 FROM jobs WHERE status = 'pending' AND run_at_ms <= ? LIMIT 1`).get(clock.nowMs());
    return row !== undefined;
  }

  function checkIdle(): void {
    if (slots.some((s) => s.running) || (!stopping && db.open && runnable())) return;
    while (waiters.length) waiters.shift()!();
  }

  const unsubscribe = onJobsChanged(db, () => setImmediate(tick));
  // Every minute, jobs whose holder died in another process (the app and `skein serve` on one
  // data dir) are taken back; at start, it happened above.
  let lastRecoveryMs = clock.nowMs();
  const poll = setInterval(() => {
    if (db.open && clock.nowMs() - lastRecoveryMs >= 60_000) {
      lastRecoveryMs = clock.nowMs();
      settler.guard('take back jobs of stopped processes', () => recoverStaleLocks(db, owner, lastRecoveryMs, STALE_LOCK_MS));
    }
    settler.retry();
    tick();
    kickWebhooks();
  }, options.pollMs ?? 500);
  poll.unref();
  setImmediate(() => {
    tick();
    kickWebhooks();
  });

  return {
    webhooks,
    poke: () => notifyJobsChanged(db),
    async idle() {
      for (;;) {
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setImmediate(tick);
        });
        await webhooks.idle();
        if (!slots.some((s) => s.running) && !runnable()) return;
      }
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(poll);
      retry.cancel();
      retention.stop();
      unsubscribe();
      for (const s of slots) s.worker?.postMessage({ type: 'stop' } satisfies ToWorker);
      // A batch ends within a second; an XLSX build can take minutes, so after STOP_WAIT_MS the
      // workers are ended anyway and the job resumes its (idempotent) finalize at the next start.
      await Promise.race([Promise.all(slots.map((s) => s.running?.done)), new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref())]);
      await Promise.all(slots.map((s) => s.worker?.terminate()));
      if (db.open) releaseLocks(db, owner, clock.nowMs());
      await webhooks.idle();
    },
  };
}
