// Migration 055: when a job's upstream walk began waiting for an outage to end (issue 14). Applied
// once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- Set at the first failed page of an outage, cleared by the next page stored. An outage pauses the
-- job without using its attempts (those count Skein's own faults); this is what bounds the pause
-- (docs/decisions.md "Upstream: an outage pauses a job").
ALTER TABLE job_upstream ADD COLUMN paused_since_ms INTEGER;
`;
