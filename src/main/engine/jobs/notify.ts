import type { Db } from '../store/db';

// Wakes the runner of a database when a job is created or cancelled, so a new job starts at once
// rather than at the next poll. Keyed by the connection: one engine, one runner.
const listeners = new WeakMap<Db, Set<() => void>>();

export function onJobsChanged(db: Db, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

export function notifyJobsChanged(db: Db): void {
  for (const l of listeners.get(db) ?? []) l();
}
