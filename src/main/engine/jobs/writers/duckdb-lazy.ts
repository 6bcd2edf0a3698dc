import type * as DuckDb from '@duckdb/node-api';

// DuckDB (a 70 MB native library) is needed only by a Parquet export or a Parquet preview: it is
// loaded on first use, in the thread that needs it (a job's worker or the main thread), not at
// every start (docs/decisions.md "Start-up: exceljs is loaded on first use" for the same reason).
let loading: Promise<typeof DuckDb> | null = null;

export function loadDuckDb(): Promise<typeof DuckDb> {
  loading ??= import('@duckdb/node-api');
  return loading;
}

/** A file path as a DuckDB string literal. */
export const sqlPath = (path: string): string => `'${path.replace(/'/g, "''")}'`;

export interface Sandbox {
  c: DuckDb.DuckDBConnection;
  close(): void;
}

/**
 * An in-memory DuckDB that reaches only the files named here: external access off once they are
 * allowed, extensions never installed or loaded on demand (json and parquet are linked into the
 * binary; nothing is ever fetched from the network), the configuration locked. One thread: the
 * runner already runs two jobs on this machine's two cores. Past `memoryLimit` it spills to
 * `tempDir` (a folder of the job's own in exports/.partial).
 */
export async function sandboxedDuckDb(paths: readonly string[], options: { tempDir?: string; memoryLimit?: string } = {}): Promise<Sandbox> {
  const { DuckDBInstance } = await loadDuckDb();
  const instance = await DuckDBInstance.create(':memory:', {
    threads: '1',
    memory_limit: options.memoryLimit ?? '512MB',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    ...(options.tempDir ? { temp_directory: options.tempDir } : {}),
  });
  const c = await instance.connect();
  const close = (): void => {
    c.closeSync();
    instance.closeSync();
  };
  try {
    // A TIMESTAMPTZ is an instant either way; UTC is the zone it is read and shown in here.
    await c.run("SET TimeZone = 'UTC'");
    await c.run(`SET allowed_paths = [${paths.map(sqlPath).join(', ')}]`);
    if (options.tempDir) await c.run(`SET allowed_directories = [${sqlPath(options.tempDir)}]`);
    await c.run('SET enable_external_access = false');
    await c.run('SET lock_configuration = true');
  } catch (err) {
    close();
    throw err;
  }
  return { c, close };
}
