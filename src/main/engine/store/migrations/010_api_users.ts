// Migration 010. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- The service's own users (the spec's "per user": keys, credits, rate limit, webhook URL), as
-- opposed to the corpus's social users. The desktop app is a built-in user, metered like any other.
CREATE TABLE api_users (
  id               INTEGER PRIMARY KEY,
  name             TEXT    NOT NULL UNIQUE COLLATE NOCASE,
  builtin          INTEGER NOT NULL DEFAULT 0,
  -- Requests allowed in any 60-second window (spec section 8: 120, raised on request).
  per_minute_limit INTEGER NOT NULL DEFAULT 120 CHECK (per_minute_limit BETWEEN 1 AND 100000),
  webhook_url      TEXT,
  created_at_ms    INTEGER NOT NULL
);

-- Keys are stored as SHA-256 hashes: a stolen database does not give working keys. \`prefix\` (the
-- first characters) lets the settings screen tell keys apart without showing them.
CREATE TABLE api_keys (
  id              INTEGER PRIMARY KEY,
  user_id         INTEGER NOT NULL REFERENCES api_users (id),
  prefix          TEXT    NOT NULL,
  hash            TEXT    NOT NULL UNIQUE,
  created_at_ms   INTEGER NOT NULL,
  revoked_at_ms   INTEGER,
  last_used_at_ms INTEGER
);
CREATE INDEX api_keys_user ON api_keys (user_id);

INSERT INTO api_users (name, builtin, created_at_ms) VALUES ('app', 1, 0);
`;
