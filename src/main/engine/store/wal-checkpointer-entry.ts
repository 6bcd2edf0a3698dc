// Worker thread entry of the background WAL checkpointer (bundled to out/main/wal-checkpointer.js;
// wal-checkpointer.ts starts it). Its own connection, no busy timeout except for a TRUNCATE past
// the WAL's bound (wal-policy.ts), and the connections that serve requests and run jobs never
// checkpoint themselves (wal_autocheckpoint = 0), so no request waits on a checkpoint's copying
// and fsyncs.
import { statSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openDb } from './db';
import type { FromWalWorker, ToWalWorker, WalPass, WalWorkerData } from './wal-messages';
import { afterPassive } from './wal-policy';

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const data = workerData as WalWorkerData;
  const send = (m: FromWalWorker) => port.postMessage(m);
  let db: ReturnType<typeof openDb>;
  try {
    db = openDb(data.dbFile, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
    db.pragma('busy_timeout = 0');
    db.pragma('wal_autocheckpoint = 0');
  } catch (err) {
    send({ type: 'failed', message: (err as Error).message });
    throw err;
  }
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const walFile = `${data.dbFile}-wal`;
  const walFileBytes = () => {
    try {
      return statSync(walFile).size;
    } catch {
      return 0; // no WAL file: nothing to do
    }
  };
  const version = () => db.pragma('data_version', { simple: true }) as number;
  let lastVersion = version();

  const checkpoint = (mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE'): CheckpointRow => (db.pragma(`wal_checkpoint(${mode})`) as CheckpointRow[])[0]!;

  const pass = (): WalPass => {
    const now = version();
    const idle = now === lastVersion;
    lastVersion = now;
    const p = checkpoint('PASSIVE');
    const fileBytes = walFileBytes();
    const out: WalPass = { busy: p.busy, walFrames: p.log, checkpointedFrames: p.checkpointed, walFileBytes: fileBytes, truncated: 'no', restarted: 'no' };
    const action = afterPassive({ walFrames: Math.max(0, p.log), checkpointedFrames: Math.max(0, p.checkpointed), pageSize, walFileBytes: fileBytes, idle }, data.limits);
    if (action.kind === 'truncate') {
      db.pragma(`busy_timeout = ${action.waitMs}`);
      try {
        const t = checkpoint('TRUNCATE');
        out.truncated = t.busy ? 'busy' : 'yes';
      } finally {
        db.pragma('busy_timeout = 0');
      }
      out.walFileBytes = walFileBytes();
    } else if (!idle && p.log > 0) {
      // Under a steady write load (metered requests: a charge group every ~2 ms) a commit lands
      // while the PASSIVE copies, so the next writer finds the WAL not fully copied and appends
      // instead of starting it over: measured, the WAL grew without pause (25 MB in 4 s of
      // requests) until the bound's TRUNCATE, and every commit wrote new file pages, which the
      // kernel zeroes and allocates (a group of 14 charges: 87-144 µs of CPU appending, 74-96 µs
      // rewriting; docs/decisions.md).
      // RESTART copies the few frames written since, holding the write lock only for them (no
      // busy timeout: a writer in its transaction makes it a PASSIVE, at once), so the next
      // writer starts the WAL over and rewrites pages the file already has.
      out.restarted = checkpoint('RESTART').busy ? 'busy' : 'yes';
    }
    return out;
  };

  const safePass = (): WalPass | null => {
    try {
      return pass();
    } catch {
      // SQLITE_BUSY from a lock another connection holds, or a database being closed: next pass.
      return null;
    }
  };

  const timer = setInterval(safePass, data.everyMs);
  port.on('message', (m: ToWalWorker) => {
    if (m.type === 'pass') {
      const p = safePass() ?? { busy: 1, walFrames: -1, checkpointedFrames: -1, walFileBytes: walFileBytes(), truncated: 'no', restarted: 'no' };
      send({ type: 'pass', id: m.id, pass: p });
      return;
    }
    clearInterval(timer);
    db.close();
    port.close();
  });
  send({ type: 'ready' });
}
