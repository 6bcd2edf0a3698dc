import type { Db } from '../store/db';

// The data files this process is sending right now (GET /datafiles/...), so a retention sweep
// leaves them for its next round. Keyed by the connection, like jobs/notify.ts: one engine, one
// set. A download in another process (a second Skein on the data dir) cannot be known here; it
// still ends whole, since the open handle keeps the bytes of a deleted file (POSIX unlink; libuv
// opens files with FILE_SHARE_DELETE on Windows).
const sending = new WeakMap<Db, Map<number, number>>();

/** Marks the job's file as being sent; call the returned function once when the send ends. */
export function downloadStarted(db: Db, jobId: number): () => void {
  let open = sending.get(db);
  if (!open) sending.set(db, (open = new Map()));
  const files = open;
  files.set(jobId, (files.get(jobId) ?? 0) + 1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    const left = (files.get(jobId) ?? 1) - 1;
    if (left > 0) files.set(jobId, left);
    else files.delete(jobId);
  };
}

export function isDownloading(db: Db, jobId: number): boolean {
  return (sending.get(db)?.get(jobId) ?? 0) > 0;
}
