// Migration 011. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- Server-side secrets (the timeline cursor's HMAC key), made on first use from the engine's
-- IdSource and kept here so cursors stay valid across restarts and between the app and the CLI.
CREATE TABLE secrets (
  name          TEXT    PRIMARY KEY,
  value_hex     TEXT    NOT NULL,
  created_at_ms INTEGER NOT NULL
);
`;
