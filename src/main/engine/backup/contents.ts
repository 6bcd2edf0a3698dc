import type { Db } from '../store/db';

// What a database holds, as `skein backup` and `skein restore` report it, and the export files it
// refers to: a successful job's data file, by name under <dataDir>/exports (jobs.result_file), and
// its capability token, which tells one job's file from another job's of the same name.

export interface DbCounts {
  posts: number;
  users: number;
  api_users: number;
  jobs: number;
  ledger_transfers: number;
}

export interface ExportRef {
  job_id: number;
  file_name: string;
  token: string | null;
  /** As recorded when the job finished. */
  bytes: number | null;
}

const COUNTED: Record<keyof DbCounts, string> = {
  posts: 'posts',
  users: 'social_users',
  api_users: 'api_users',
  jobs: 'jobs',
  ledger_transfers: 'ledger_transfers',
};

const hasTable = (db: Db, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

export function countsOf(db: Db): DbCounts {
  const counts = {} as DbCounts;
  for (const [key, table] of Object.entries(COUNTED) as [keyof DbCounts, string][]) {
    counts[key] = hasTable(db, table) ? (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number) : 0;
  }
  return counts;
}

/** A plain file name: a result_file is never a path, and one that is would not be followed. */
const isPlainName = (name: string): boolean => name !== '.' && name !== '..' && !/[/\\]/.test(name);

/** The data files of successful jobs (what the app's Exports lists), oldest job first. */
export function exportRefsOf(db: Db): ExportRef[] {
  if (!hasTable(db, 'jobs')) return [];
  // A file deleted on purpose (Exports > Delete, the retention setting) is no longer referred to.
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('jobs') as string[];
  const kept = columns.includes('file_deleted_at_ms') ? ' AND file_deleted_at_ms IS NULL' : '';
  const rows = db
    .prepare(`SELECT id, result_file, datafile_token, result_bytes FROM jobs WHERE status = 'success' AND result_file IS NOT NULL${kept} ORDER BY id`)
    .all() as { id: number; result_file: string; datafile_token: string | null; result_bytes: number | null }[];
  return rows
    .filter((r) => isPlainName(r.result_file))
    .map((r) => ({ job_id: r.id, file_name: r.result_file, token: r.datafile_token, bytes: r.result_bytes }));
}

export function hasSchemaMigrations(db: Db): boolean {
  return hasTable(db, 'schema_migrations');
}
