// Migration 060: deleting a finished job's data file, by the analyst or by the retention setting
// (issue 13 point 18). Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- A deleted data file leaves its job row, its token and every ledger transfer as they were: only
-- the file goes, and these two say when and why. The file's URL then answers 410 Gone.
ALTER TABLE jobs ADD COLUMN file_deleted_at_ms INTEGER;
ALTER TABLE jobs ADD COLUMN file_deleted_by TEXT CHECK (file_deleted_by IN ('user', 'retention'));

-- The files a retention sweep looks at (a success whose file is still kept), oldest first.
CREATE INDEX jobs_kept_files ON jobs (finished_at_ms, id)
  WHERE status = 'success' AND result_file IS NOT NULL AND file_deleted_at_ms IS NULL;

-- How long finished data files are kept, one row: every file (the default), files finished within
-- the last N days, or the newest files up to a total size (oldest deleted first). Server-side,
-- because the server applies it (at start, hourly, after each job).
CREATE TABLE export_retention (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  keep          TEXT    NOT NULL CHECK (keep IN ('all', 'days', 'size')),
  days          INTEGER CHECK (days IS NULL OR days BETWEEN 1 AND 36500),
  max_bytes     INTEGER CHECK (max_bytes IS NULL OR max_bytes >= 1),
  updated_at_ms INTEGER NOT NULL,
  CHECK ((keep = 'all' AND days IS NULL AND max_bytes IS NULL)
      OR (keep = 'days' AND days IS NOT NULL AND max_bytes IS NULL)
      OR (keep = 'size' AND max_bytes IS NOT NULL AND days IS NULL))
);
INSERT INTO export_retention (id, keep, days, max_bytes, updated_at_ms) VALUES (1, 'all', NULL, NULL, 0);
`;
