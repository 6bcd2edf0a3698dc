// Migration 058: whether a job's current attempt committed anything (issue 13 and issue 14).
// Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- Set to 0 by each claim and to 1 by each committed batch or stored upstream page. Recovery of a
-- job whose process died counts the attempt only when it is 0: a job that crashes its process
-- before committing anything, again and again, ends after max_attempts; a job killed while it makes
-- progress (a laptop closed, an analyst's kill, a crash between batches) resumes however often.
ALTER TABLE jobs ADD COLUMN attempt_progress INTEGER NOT NULL DEFAULT 0 CHECK (attempt_progress IN (0, 1));
`;
