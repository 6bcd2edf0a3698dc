// Migration 064: a third job kind, timeline (issue 15: a user's timeline to a file, our extension).
// Applied once by store/migrate.ts with foreign keys off (rebuilding jobs, which webhook_deliveries
// and job_upstream reference), then checked with foreign_key_check before it commits. The same
// procedure as 062, whose table this copies column for column with only the kind CHECK widened.
export default /* sql */ `
-- SQLite cannot change a CHECK in place: jobs is rebuilt (sqlite.org/lang_altertable.html,
-- "making other kinds of table schema changes"), exactly as migration 062 did: a new table with
-- every column in its order and the widened CHECK, the rows copied, the old table dropped, the new
-- one renamed, its three indexes made again. No trigger or view names jobs.
CREATE TABLE jobs_new (
  id                 INTEGER PRIMARY KEY,
  user_id            INTEGER NOT NULL REFERENCES api_users (id),
  kind               TEXT    NOT NULL CHECK (kind IN ('replies', 'search', 'timeline')),
  -- The validated request parameters, ids as strings (exact 64-bit values); also csv_dialect and
  -- gexf_dynamic, the output's own options (jobs/params.ts).
  params_json        TEXT    NOT NULL,
  output_format      TEXT    NOT NULL CHECK (output_format IN ('json', 'csv', 'xlsx', 'gexf', 'parquet')),
  compress           INTEGER NOT NULL DEFAULT 0 CHECK (compress IN (0, 1)),
  status             TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'success', 'error')),
  attempts           INTEGER NOT NULL DEFAULT 0,
  max_attempts       INTEGER NOT NULL DEFAULT 5 CHECK (max_attempts BETWEEN 1 AND 100),
  run_at_ms          INTEGER NOT NULL,
  locked_at_ms       INTEGER,
  locked_by          TEXT,
  last_error         TEXT,
  progress           INTEGER NOT NULL DEFAULT 0,
  progress_total     INTEGER,
  held_credits       INTEGER NOT NULL DEFAULT 0,
  charged_credits    INTEGER NOT NULL DEFAULT 0,
  cancel_requested   INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
  checkpoint_cursor  TEXT,
  checkpoint_rows    INTEGER NOT NULL DEFAULT 0,
  checkpoint_bytes   INTEGER NOT NULL DEFAULT 0,
  phase              TEXT    NOT NULL DEFAULT 'collect' CHECK (phase IN ('collect', 'finalize')),
  result_file        TEXT,
  datafile_token     TEXT    UNIQUE,
  is_compressed      INTEGER,
  result_rows        INTEGER,
  result_bytes       INTEGER,
  created_at_ms      INTEGER NOT NULL,
  started_at_ms      INTEGER,
  finished_at_ms     INTEGER,
  updated_at_ms      INTEGER NOT NULL,
  disk_full_since_ms INTEGER,
  attempt_progress   INTEGER NOT NULL DEFAULT 0 CHECK (attempt_progress IN (0, 1)),
  file_deleted_at_ms INTEGER,
  file_deleted_by    TEXT CHECK (file_deleted_by IN ('user', 'retention')),
  CHECK (charged_credits <= held_credits),
  CHECK (status IN ('success', 'error') OR finished_at_ms IS NULL)
);
INSERT INTO jobs_new (id, user_id, kind, params_json, output_format, compress, status, attempts, max_attempts,
  run_at_ms, locked_at_ms, locked_by, last_error, progress, progress_total, held_credits, charged_credits,
  cancel_requested, checkpoint_cursor, checkpoint_rows, checkpoint_bytes, phase, result_file, datafile_token,
  is_compressed, result_rows, result_bytes, created_at_ms, started_at_ms, finished_at_ms, updated_at_ms,
  disk_full_since_ms, attempt_progress, file_deleted_at_ms, file_deleted_by)
SELECT id, user_id, kind, params_json, output_format, compress, status, attempts, max_attempts,
  run_at_ms, locked_at_ms, locked_by, last_error, progress, progress_total, held_credits, charged_credits,
  cancel_requested, checkpoint_cursor, checkpoint_rows, checkpoint_bytes, phase, result_file, datafile_token,
  is_compressed, result_rows, result_bytes, created_at_ms, started_at_ms, finished_at_ms, updated_at_ms,
  disk_full_since_ms, attempt_progress, file_deleted_at_ms, file_deleted_by
FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_new RENAME TO jobs;
CREATE INDEX jobs_runnable ON jobs (status, run_at_ms, id);
CREATE INDEX jobs_user ON jobs (user_id, id DESC);
CREATE INDEX jobs_kept_files ON jobs (finished_at_ms, id)
  WHERE status = 'success' AND result_file IS NOT NULL AND file_deleted_at_ms IS NULL;
`;
