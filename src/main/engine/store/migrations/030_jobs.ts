// Migration 030. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- Asynchronous jobs (spec 4.6-4.8), shaped like graphile-worker's job table: a status, attempts,
-- a lock (who holds the job and since when, so a crashed holder's lock can be taken back), the last
-- error, progress, and a checkpoint that makes a resumed job continue exactly where its last
-- committed batch ended. Terminal states are the spec's two, success and error; a cancelled job
-- ends in error with the message "Cancelled by the user" (docs/decisions.md).
CREATE TABLE jobs (
  id                 INTEGER PRIMARY KEY,
  user_id            INTEGER NOT NULL REFERENCES api_users (id),
  kind               TEXT    NOT NULL CHECK (kind IN ('replies', 'search')),
  -- The validated request parameters, ids as strings (exact 64-bit values).
  params_json        TEXT    NOT NULL,
  output_format      TEXT    NOT NULL CHECK (output_format IN ('json', 'csv', 'xlsx')),
  compress           INTEGER NOT NULL DEFAULT 0 CHECK (compress IN (0, 1)),
  status             TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'success', 'error')),
  attempts           INTEGER NOT NULL DEFAULT 0,
  max_attempts       INTEGER NOT NULL DEFAULT 5 CHECK (max_attempts BETWEEN 1 AND 100),
  -- A failed attempt waits before the next one (backoff); a new job can run at once.
  run_at_ms          INTEGER NOT NULL,
  locked_at_ms       INTEGER,
  locked_by          TEXT,
  last_error         TEXT,
  -- Rows committed to the output so far, and the most the job can write (max_count or the held count).
  progress           INTEGER NOT NULL DEFAULT 0,
  progress_total     INTEGER,
  -- Credits: the hold placed at creation, and what has been posted from it so far.
  held_credits       INTEGER NOT NULL DEFAULT 0,
  charged_credits    INTEGER NOT NULL DEFAULT 0,
  cancel_requested   INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
  -- Checkpoint, committed in the same transaction as the batch's charge: where the walk through
  -- the store stopped (opaque to the queue), rows and staged bytes written up to it, and the phase
  -- ('collect' while rows are gathered, 'finalize' once every row is staged).
  checkpoint_cursor  TEXT,
  checkpoint_rows    INTEGER NOT NULL DEFAULT 0,
  checkpoint_bytes   INTEGER NOT NULL DEFAULT 0,
  phase              TEXT    NOT NULL DEFAULT 'collect' CHECK (phase IN ('collect', 'finalize')),
  -- The result: a file under <dataDir>/exports, reachable by an unguessable capability token.
  result_file        TEXT,
  datafile_token     TEXT    UNIQUE,
  is_compressed      INTEGER,
  result_rows        INTEGER,
  result_bytes       INTEGER,
  created_at_ms      INTEGER NOT NULL,
  started_at_ms      INTEGER,
  finished_at_ms     INTEGER,
  updated_at_ms      INTEGER NOT NULL,
  CHECK (charged_credits <= held_credits),
  CHECK (status IN ('success', 'error') OR finished_at_ms IS NULL)
);
-- The runner's question, "the oldest runnable job", is one index range scan.
CREATE INDEX jobs_runnable ON jobs (status, run_at_ms, id);
CREATE INDEX jobs_user ON jobs (user_id, id DESC);
`;
