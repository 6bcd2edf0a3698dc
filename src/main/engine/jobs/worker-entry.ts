// Worker thread entry for the job runner (bundled to out/main/job-worker.js). Each worker has its
// own SQLite connection (WAL: it writes its batches while the API keeps reading), runs one job at a
// time as the main thread asks, and reports progress and the outcome back.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../clock';
import { cryptoIds } from '../ids';
import { openDb } from '../store/db';
import type { FromWorker, ToWorker, WorkerData } from './messages';
import { runJob } from './run-job';
import { UnsettledRunError } from './unsettled';

if (!isMainThread && parentPort) {
  const port = parentPort;
  const data = workerData as WorkerData;
  const db = openDb(`${data.dataDir}/skein.db`, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {});
  // Under a WAL checkpointer (0), this connection's commits never checkpoint the WAL themselves.
  if (data.walAutocheckpoint !== undefined) db.pragma(`wal_autocheckpoint = ${data.walAutocheckpoint}`);
  let stopping = false;
  const send = (m: FromWorker) => port.postMessage(m);
  port.on('message', (m: ToWorker) => {
    if (m.type === 'stop') {
      stopping = true;
      return;
    }
    const jobId = m.job.id;
    runJob(
      {
        db,
        dataDir: data.dataDir,
        clock: systemClock,
        ids: cryptoIds,
        workerId: m.workerId,
        upstreamKey: m.upstreamKey ?? null,
        ...(data.batchRows ? { batchRows: data.batchRows } : {}),
        ...(data.xlsx ? { xlsx: data.xlsx } : {}),
        // Yield between batches so a 'stop' message gets through.
        between: () => new Promise((r) => setImmediate(r)),
        stopRequested: () => stopping,
        onProgress: (id, rows) => send({ type: 'progress', jobId: id, rows }),
      },
      m.job,
    ).then(
      (outcome) => send({ type: 'done', jobId, outcome }),
      (err: unknown) =>
        send({ type: 'crashed', jobId, message: (err as Error).message ?? String(err), ...(err instanceof UnsettledRunError ? { settle: err.settle } : {}) }),
    );
  });
}
