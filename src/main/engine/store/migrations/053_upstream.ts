// Migration 053: the upstream source (issue 14), one row at most. Applied once, in its own
// transaction, by store/migrate.ts.
export default /* sql */ `
-- Where Skein fetches what it does not hold: the real service (profile 'socialdata', its
-- /twitter/... paths) or another Skein (profile 'spec', the /social paths). The API key is NOT
-- here: it lives in the OS keychain or in SKEIN_UPSTREAM_KEY (docs/decisions.md "Upstream: the key").
-- Only what the last use of the key taught us is kept: valid, invalid (401/403), or unknown.
CREATE TABLE upstream_config (
  id                 INTEGER PRIMARY KEY CHECK (id = 1),
  url                TEXT    NOT NULL,
  profile            TEXT    NOT NULL CHECK (profile IN ('socialdata', 'spec')),
  mode               TEXT    NOT NULL DEFAULT 'cache-first' CHECK (mode IN ('offline', 'cache-first', 'refresh')),
  per_minute         INTEGER NOT NULL DEFAULT 120 CHECK (per_minute BETWEEN 1 AND 100000),
  budget_items       INTEGER CHECK (budget_items IS NULL OR budget_items >= 0),
  price_per_item_usd REAL    NOT NULL DEFAULT 0.0002 CHECK (price_per_item_usd >= 0),
  key_status         TEXT    NOT NULL DEFAULT 'unknown' CHECK (key_status IN ('unknown', 'valid', 'invalid')),
  key_checked_at_ms  INTEGER,
  key_message        TEXT,
  updated_at_ms      INTEGER NOT NULL
);
`;
