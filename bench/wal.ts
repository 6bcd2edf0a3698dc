import { statSync } from 'node:fs';

// The WAL side of the latency benches (export.bench.ts, import.bench.ts): the server runs with its
// background WAL checkpointer, as `skein serve` does; SKEIN_BENCH_WAL=auto measures it without
// (SQLite checkpointing on whichever connection commits, as before issue 17), for before/after runs.

export function walCheckpointerWanted(): boolean {
  return process.env.SKEIN_BENCH_WAL !== 'auto';
}

/** The -wal file's size (its largest extent since it was last truncated). */
export function walFileBytes(dbFile: string): number {
  try {
    return statSync(`${dbFile}-wal`).size;
  } catch {
    return 0;
  }
}
