// Migration 066: which posts each job wrote (issue 16, "an overview of a finished job's rows").
// Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- One row per post a job wrote into its file, written by the job worker in the same transaction as
-- the batch's checkpoint and charge (jobs/queue/checkpoint.ts): a killed job's uncommitted batch
-- leaves no row here, as it leaves none in the file, so the set is exact after kills and resumes.
-- It stays when the data file is deleted (the job and its charges stay too). WITHOUT ROWID: the
-- key is the whole row (measured: 17.75 bytes a post on disk), and one job's posts are one range
-- of it. No foreign key to jobs: jobs are never deleted, and it would cost a lookup per row.
CREATE TABLE job_posts (
  job_id  INTEGER NOT NULL,
  post_id INTEGER NOT NULL,
  PRIMARY KEY (job_id, post_id)
) WITHOUT ROWID;

-- 1: the job records its posts in job_posts. Jobs that wrote rows before this migration did not
-- (a job running then would lack its earlier batches), so they are 0, and the app says that their
-- overview is not available; a waiting job that has written nothing yet records all it will write.
-- A job that collects again from row 0 (queue/restart.ts) records every row, so it becomes 1 then.
ALTER TABLE jobs ADD COLUMN records_posts INTEGER NOT NULL DEFAULT 1 CHECK (records_posts IN (0, 1));
UPDATE jobs SET records_posts = 0 WHERE NOT (status = 'pending' AND phase = 'collect' AND checkpoint_rows = 0);
`;
