// Migration 054: what the upstream (issue 14) needs beside its configuration: how long a fetched
// copy counts as fresh, the pages fetched, the spend book, the shared limiter's log and a job's
// walk through the upstream. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- How long a stored copy counts as fresh in 'cache-first' mode, per kind of object
-- (docs/decisions.md "Upstream: modes and freshness"). Counters of a post move for days, a
-- timeline's first page within minutes, an article hardly ever.
ALTER TABLE upstream_config ADD COLUMN fresh_post_ms    INTEGER NOT NULL DEFAULT 86400000  CHECK (fresh_post_ms >= 0);
ALTER TABLE upstream_config ADD COLUMN fresh_page_ms    INTEGER NOT NULL DEFAULT 900000    CHECK (fresh_page_ms >= 0);
ALTER TABLE upstream_config ADD COLUMN fresh_user_ms    INTEGER NOT NULL DEFAULT 86400000  CHECK (fresh_user_ms >= 0);
ALTER TABLE upstream_config ADD COLUMN fresh_article_ms INTEGER NOT NULL DEFAULT 604800000 CHECK (fresh_article_ms >= 0);
ALTER TABLE upstream_config ADD COLUMN fresh_space_ms   INTEGER NOT NULL DEFAULT 3600000   CHECK (fresh_space_ms >= 0);
-- The budget counts what was spent since it was last set (a new --budget starts a new allowance).
ALTER TABLE upstream_config ADD COLUMN budget_set_at_ms INTEGER;
-- A job whose upstream estimate passes this many items asks the app's user first.
ALTER TABLE upstream_config ADD COLUMN confirm_over_items INTEGER NOT NULL DEFAULT 1000 CHECK (confirm_over_items >= 0);

-- One row per upstream page request (a timeline or search page, by its exact upstream path, cursor
-- included): the posts it returned, in its order, and the upstream's next cursor. A local cursor
-- names a row by seq, so the upstream's cursor never leaves Skein and a page is served again from
-- here while fresh. Refetching a request updates its row in place (seq kept).
CREATE TABLE upstream_pages (
  seq           INTEGER PRIMARY KEY,
  request       TEXT    NOT NULL UNIQUE CHECK (length(request) <= 4096),
  fetched_at_ms INTEGER NOT NULL,
  next_cursor   TEXT    CHECK (next_cursor IS NULL OR length(next_cursor) <= 4096),
  post_ids      TEXT    NOT NULL
);

-- The upstream account: what Skein spent at the upstream, one line per answered request, in the
-- upstream's unit (items), beside the credit ledger, which counts another currency. Append-only;
-- ids are chosen by the caller, so a job's page is booked once however often it is retried.
CREATE TABLE upstream_spend (
  seq         INTEGER PRIMARY KEY,
  id          TEXT    NOT NULL UNIQUE CHECK (length(id) BETWEEN 1 AND 200),
  at_ms       INTEGER NOT NULL,
  items       INTEGER NOT NULL CHECK (items >= 0),
  request     TEXT    NOT NULL CHECK (length(request) <= 4096),
  via         TEXT    NOT NULL CHECK (via IN ('api', 'app', 'job', 'cli')),
  api_user_id INTEGER,
  job_id      INTEGER
);
CREATE INDEX upstream_spend_at ON upstream_spend (at_ms);
CREATE INDEX upstream_spend_user ON upstream_spend (api_user_id, at_ms) WHERE api_user_id IS NOT NULL;
CREATE TRIGGER upstream_spend_no_update BEFORE UPDATE ON upstream_spend
BEGIN SELECT RAISE(ABORT, 'the upstream spend book is append-only'); END;
CREATE TRIGGER upstream_spend_no_delete BEFORE DELETE ON upstream_spend
BEGIN SELECT RAISE(ABORT, 'the upstream spend book is append-only'); END;

-- The shared limiter's log: the admission times of the last minute's requests. In the database
-- because job workers are threads with their own connections, and the upstream counts them all.
-- reserved_items holds the most an admitted request may still bring back until its answer is
-- booked, so concurrent requests can never together pass the budget; a row leaves after 60 s,
-- longer than a request may last (30 s), so a crashed caller's reservation lapses by itself.
CREATE TABLE upstream_admissions (
  seq            INTEGER PRIMARY KEY,
  at_ms          INTEGER NOT NULL,
  reserved_items INTEGER NOT NULL DEFAULT 0 CHECK (reserved_items >= 0)
);

-- A job's walk through the upstream (its fetch phase): the upstream cursor of the next page, the
-- pages and items stored so far, and whether the walk is over. Written in the same transaction as
-- the page's posts, so a resumed job never fetches a stored page again.
CREATE TABLE job_upstream (
  job_id        INTEGER PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  request       TEXT    NOT NULL,
  cursor        TEXT,
  pages         INTEGER NOT NULL DEFAULT 0,
  items         INTEGER NOT NULL DEFAULT 0,
  done          INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
  updated_at_ms INTEGER NOT NULL
);
`;
