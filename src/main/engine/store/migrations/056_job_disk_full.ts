// Migration 056: when a job began waiting for a full disk (issue 13). Applied once, in its own
// transaction, by store/migrate.ts.
export default /* sql */ `
-- Set at the first write a full disk refused (ENOSPC, or SQLite's SQLITE_FULL), cleared by the next
-- batch committed. A full disk pauses the job without using its attempts (those count Skein's own
-- faults); this bounds the pause at 24 h (jobs/disk-full.ts, docs/decisions.md "A full disk pauses
-- a job"), and marks a pending job as paused by it (its staged file is listed in Exports).
ALTER TABLE jobs ADD COLUMN disk_full_since_ms INTEGER;
`;
