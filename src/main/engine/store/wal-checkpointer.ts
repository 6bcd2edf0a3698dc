import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db } from './db';
import type { FromWalWorker, ToWalWorker, WalPass, WalWorkerData } from './wal-messages';
import { DEFAULT_WAL_LIMITS, WAL_PASS_EVERY_MS, type WalLimits } from './wal-policy';

export type { WalPass } from './wal-messages';

// WAL checkpoints off the request path (issue 17). By default SQLite checkpoints on whichever
// connection commits once the WAL passes 1,000 pages: the API's connection committing a request's
// charge copied the pages an export or an import had written (and fsynced the database) before
// the request's answer went out. A server instead turns that off on the connections that serve
// requests and run jobs (wal_autocheckpoint = 0) and checkpoints on a worker thread with its own
// connection (wal-checkpointer-entry.ts, policy in wal-policy.ts).

/** SQLite's default, restored when the checkpointer stops or dies. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

export interface WalCheckpointerOptions {
  everyMs?: number;
  limits?: Partial<WalLimits>;
  nativeBinding?: string;
  /** The worker script; default: wal-checkpointer.js next to the bundle, or the TS source. */
  workerFile?: string;
  /** Where a checkpointer that stopped on its own says so (default: stderr). */
  log?: (line: string) => void;
}

export interface WalCheckpointer {
  /** Runs one pass now and resolves with what it did (tests, benches; nothing else waits on it). */
  pass(): Promise<WalPass>;
  /** Ends the thread; the engine's connection checkpoints by itself again. */
  stop(): Promise<void>;
}

/**
 * Whether a server starts the checkpointer: yes, unless SKEIN_WAL_THREAD=0 (kept to compare
 * before and after, and as a way back should a machine's SQLite misbehave with it). On a full
 * disk the thread changes which write fails first: the WAL it keeps emptying is reused in place,
 * so a job's fault is recorded where, without it, the WAL could not grow and the record failed
 * (test/integration/jobs-disk-full-tmpfs.test.ts runs both).
 */
export function walThreadWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.SKEIN_WAL_THREAD !== '0';
}

export function defaultWalWorkerFile(): string {
  for (const built of [join(__dirname, 'wal-checkpointer.js'), join(__dirname, '..', 'wal-checkpointer.js')]) {
    if (existsSync(built)) return built;
  }
  return join(__dirname, 'wal-checkpointer-entry.ts');
}

/**
 * Starts the background checkpointer of an engine's database. Call once per process, before the
 * job runner (its workers copy the engine connection's wal_autocheckpoint when they open theirs).
 */
export function startWalCheckpointer(engine: { db: Db; dbFile: string }, options: WalCheckpointerOptions = {}): WalCheckpointer {
  const file = options.workerFile ?? defaultWalWorkerFile();
  const data: WalWorkerData = {
    dbFile: engine.dbFile,
    everyMs: options.everyMs ?? WAL_PASS_EVERY_MS,
    limits: { ...DEFAULT_WAL_LIMITS, ...options.limits },
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  };
  // From sources (tests), the TypeScript entry is loaded through tsx's require hook, as the job
  // runner does for its workers.
  const worker = file.endsWith('.ts')
    ? new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`, { eval: true, workerData: data })
    : new Worker(file, { workerData: data });
  worker.unref();
  engine.db.pragma('wal_autocheckpoint = 0');
  let stopped = false;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (p: WalPass) => void; reject: (e: Error) => void }>();
  const restore = () => {
    if (engine.db.open) engine.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  };
  const ended = (why: string) => {
    for (const w of waiting.values()) w.reject(new Error(why));
    waiting.clear();
  };
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', (code) => {
      if (!stopped) {
        // Without its checkpointer the WAL would only grow: the engine's connection checkpoints again.
        restore();
        (options.log ?? ((l) => process.stderr.write(`${l}\n`)))(`The WAL checkpointer stopped (exit code ${code}); SQLite checkpoints on the engine's connection again.`);
      }
      ended('the WAL checkpointer has stopped');
      resolve();
    });
  });
  worker.on('error', () => undefined); // reported through 'exit'
  worker.on('message', (m: FromWalWorker) => {
    if (m.type !== 'pass') return;
    waiting.get(m.id)?.resolve(m.pass);
    waiting.delete(m.id);
  });
  const post = (m: ToWalWorker) => worker.postMessage(m);
  return {
    pass() {
      if (stopped) return Promise.reject(new Error('the WAL checkpointer has stopped'));
      const id = nextId++;
      return new Promise<WalPass>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        post({ type: 'pass', id });
      });
    },
    async stop() {
      if (stopped) return exited;
      stopped = true;
      restore();
      // Held until it has closed its connection: unref'd, a process with nothing else to do
      // would end before the thread does.
      worker.ref();
      post({ type: 'stop' });
      await exited;
    },
  };
}
