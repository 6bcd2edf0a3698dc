import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/engine/store/db';
import { migrate } from '../../src/main/engine/store/migrate';
import { migrations } from '../../src/main/engine/store/migrations';
import { tempDir } from '../helpers/temp';

// Migration 064 rebuilds jobs (a wider CHECK on kind, for timeline jobs) as 062 did; 065 adds the
// tombstone of a deleted job (deleted_at_ms), allowed only on a finished job. A database written
// by the previous build, with jobs in every state and rows that reference them, must come out
// whole, and its jobs table must be the one a new database gets.

function databaseAt063() {
  const db = openDb(join(tempDir(), 'skein.db'));
  migrate(db, migrations.filter((m) => m.id < 64));
  db.prepare('INSERT INTO api_users (name, created_at_ms) VALUES (?, ?)').run('analyst', 1000); // user 2
  const job = db.prepare(`INSERT INTO jobs (id, user_id, kind, params_json, output_format, compress, status, attempts, run_at_ms,
      locked_at_ms, locked_by, last_error, progress, progress_total, held_credits, charged_credits, checkpoint_cursor,
      checkpoint_rows, checkpoint_bytes, phase, result_file, datafile_token, is_compressed, result_rows, result_bytes,
      created_at_ms, started_at_ms, finished_at_ms, updated_at_ms, disk_full_since_ms, attempt_progress, file_deleted_at_ms, file_deleted_by)
    VALUES (@id, 2, @kind, @params, @format, @compress, @status, 1, 10, @locked, @by, @err, 5, 9, 9, 5, @cursor, 5, 777, @phase,
      @file, @token, @zip, @rows, @bytes, 1, 2, @finished, 3, @full, 1, @deleted, @deletedBy)`);
  const base = { compress: 0, locked: null, by: null, err: null, cursor: null, phase: 'collect', file: null, token: null, zip: null, rows: null, bytes: null, finished: null, full: null, deleted: null, deletedBy: null };
  job.run({ ...base, id: 3, kind: 'search', params: '{"query":"a","type":"Latest","max_count":9}', format: 'gexf', status: 'success', phase: 'finalize', file: 'search-job3.gexf', token: 'aa'.repeat(24), zip: 0, rows: 5, bytes: 100, finished: 4 });
  job.run({ ...base, id: 4, kind: 'replies', params: '{"tweet_id":"1850000000000000000","csv_dialect":"plain"}', format: 'csv', compress: 1, status: 'success', file: 'replies-1850000000000000000-job4.csv.zip', token: 'bb'.repeat(24), zip: 1, rows: 5, bytes: 50, finished: 5, deleted: 6, deletedBy: 'retention' });
  job.run({ ...base, id: 5, kind: 'search', params: '{"query":"b"}', format: 'parquet', status: 'processing', locked: 7, by: 'host:1:r:0', cursor: 'L:123' });
  job.run({ ...base, id: 6, kind: 'search', params: '{"query":"c"}', format: 'json', status: 'pending', err: 'The disk is full', full: 8 });
  db.prepare(`INSERT INTO webhook_deliveries (job_id, user_id, url, state, created_at_ms) VALUES (3, 2, 'http://127.0.0.1:9/hook', 'delivered', 9)`).run();
  db.prepare(`INSERT INTO job_upstream (job_id, request, pages, items, updated_at_ms) VALUES (5, '/twitter/search?query=b', 2, 40, 10)`).run();
  return db;
}

const insert = (kind: string, status = 'pending', extra = '') =>
  `INSERT INTO jobs (user_id, kind, params_json, output_format, status, run_at_ms, created_at_ms, updated_at_ms${extra ? ', finished_at_ms, deleted_at_ms' : ''})
   VALUES (2, '${kind}', '{}', 'json', '${status}', 0, 0, 0${extra})`;

const jobsSchema = (db: ReturnType<typeof openDb>) =>
  db.prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'jobs' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name").all();

describe('migrations 064 (timeline jobs) and 065 (deleted jobs)', () => {
  it('keep every job and every reference to one, then take the kind timeline and a tombstone on a finished job only', () => {
    const db = databaseAt063();
    const rows = db.prepare('SELECT * FROM jobs ORDER BY id').all() as Record<string, unknown>[];
    expect(() => db.exec(insert('timeline'))).toThrow(/CHECK constraint failed/);

    expect(migrate(db, migrations.filter((m) => m.id <= 65)).applied).toEqual([64, 65]);

    // Every row as it was, with the new column empty.
    expect(db.prepare('SELECT * FROM jobs ORDER BY id').all()).toEqual(rows.map((r) => ({ ...r, deleted_at_ms: null })));
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT job_id FROM webhook_deliveries').pluck().all()).toEqual([3]);
    expect(db.prepare('SELECT job_id FROM job_upstream').pluck().all()).toEqual([5]);

    db.exec(insert('timeline'));
    expect(() => db.exec(insert('followers'))).toThrow(/CHECK constraint failed/);
    // The other constraints came along: the user must exist, a token is unique, charges stay within the hold.
    expect(() => db.exec(`INSERT INTO jobs (user_id, kind, params_json, output_format, run_at_ms, created_at_ms, updated_at_ms) VALUES (99, 'timeline', '{}', 'json', 0, 0, 0)`)).toThrow(/FOREIGN KEY/);
    expect(() => db.exec(`UPDATE jobs SET datafile_token = '${'aa'.repeat(24)}' WHERE id = 5`)).toThrow(/UNIQUE/);
    expect(() => db.exec('UPDATE jobs SET charged_credits = 10 WHERE id = 5')).toThrow(/CHECK/);
    expect(() => db.exec(`INSERT INTO webhook_deliveries (job_id, user_id, url, created_at_ms) VALUES (42, 2, 'http://x', 0)`)).toThrow(/FOREIGN KEY/);

    // A tombstone only on a finished job, and a deleted job cannot start again.
    db.exec('UPDATE jobs SET deleted_at_ms = 50 WHERE id = 3');
    expect(() => db.exec('UPDATE jobs SET deleted_at_ms = 50 WHERE id = 5')).toThrow(/CHECK constraint failed/);
    expect(() => db.exec('UPDATE jobs SET deleted_at_ms = 50 WHERE id = 6')).toThrow(/CHECK constraint failed/);
    expect(() => db.exec("UPDATE jobs SET status = 'pending', finished_at_ms = NULL WHERE id = 3")).toThrow(/CHECK constraint failed/);
    db.exec(insert('timeline', 'error', ', 1, 2'));
    // ON DELETE CASCADE still cascades into the rebuilt table's walk.
    db.exec('DELETE FROM jobs WHERE id = 5');
    expect(db.prepare('SELECT count(*) FROM job_upstream').pluck().get()).toBe(0);
  });

  it('leave the jobs table, its indexes and the tables naming it as a new database has them', () => {
    const migrated = databaseAt063();
    migrate(migrated);
    const fresh = openDb(join(tempDir(), 'skein.db'));
    migrate(fresh);
    const normal = (rows: unknown[]) => rows.map((r) => ({ ...(r as { sql: string }), sql: (r as { sql: string }).sql.replace(/\s+/g, ' ') }));
    expect(normal(jobsSchema(migrated))).toEqual(normal(jobsSchema(fresh)));
    const fks = (db: ReturnType<typeof openDb>, t: string) => db.prepare(`SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list('${t}')`).all();
    for (const t of ['webhook_deliveries', 'job_upstream']) expect(fks(migrated, t)).toEqual(fks(fresh, t));
    expect(migrated.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'jobs' AND type = 'index' ORDER BY name").pluck().all()).toEqual([
      'jobs_kept_files',
      'jobs_runnable',
      'jobs_user',
      'sqlite_autoindex_jobs_1',
    ]);
    const plan = migrated.prepare("EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE status = 'pending' AND run_at_ms <= 5 ORDER BY run_at_ms, id LIMIT 1").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX jobs_runnable/);
  });
});
