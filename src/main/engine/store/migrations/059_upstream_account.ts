// Migration 059: upstream spend in the credit ledger, as its own account (issue 14). Applied once
// by store/migrate.ts with foreign keys off (rebuilding ledger_accounts, which the transfers,
// holds and checkpoint reference), then checked with foreign_key_check before it commits.
export default /* sql */ `
-- Items are credits (docs/decisions.md "/user/balance is in US dollars": Skein prices an item at
-- 1 credit, as the real service prices it at $0.0002), so what the upstream bills is booked in the
-- same unit as everything else. Two system accounts, like grants and usage: 'upstream_key' (the
-- analyst's key at the upstream: debited by every item the upstream billed) and 'upstream' (the
-- upstream: credited by them). A user's balance never moves with them: local users are metered by
-- their own charges; an upstream transfer names the local user whose request caused it instead.
-- SQLite cannot change a CHECK in place: the table is rebuilt (sqlite.org/lang_altertable.html,
-- "making other kinds of table schema changes"), its trigger dropped first and made again.
DROP TRIGGER api_users_ledger_account;
CREATE TABLE ledger_accounts_new (
  id              INTEGER PRIMARY KEY,
  kind            TEXT    NOT NULL CHECK (kind IN ('grants', 'usage', 'user', 'upstream_key', 'upstream')),
  user_id         INTEGER UNIQUE REFERENCES api_users (id),
  debits_pending  INTEGER NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
  debits_posted   INTEGER NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
  credits_pending INTEGER NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
  credits_posted  INTEGER NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
  CHECK ((kind = 'user') = (user_id IS NOT NULL)),
  CHECK (kind <> 'user' OR debits_pending + debits_posted <= credits_posted)
);
INSERT INTO ledger_accounts_new (id, kind, user_id, debits_pending, debits_posted, credits_pending, credits_posted)
SELECT id, kind, user_id, debits_pending, debits_posted, credits_pending, credits_posted FROM ledger_accounts;
DROP TABLE ledger_accounts;
ALTER TABLE ledger_accounts_new RENAME TO ledger_accounts;
CREATE TRIGGER api_users_ledger_account AFTER INSERT ON api_users
BEGIN
  INSERT INTO ledger_accounts (kind, user_id) VALUES ('user', NEW.id);
END;
-- One account of each system kind; the code finds them by kind (user accounts took ids 3, 4, ...).
CREATE UNIQUE INDEX ledger_accounts_system ON ledger_accounts (kind) WHERE kind <> 'user';
INSERT INTO ledger_accounts (kind) VALUES ('upstream_key'), ('upstream');

-- The local API user whose request an upstream transfer paid for (a job's: the job's owner; the
-- app's: the built-in 'app' user), so a user's ledger lists what their requests cost upstream.
-- Null on every other transfer (their user is their account's).
ALTER TABLE ledger_transfers ADD COLUMN cause_user_id INTEGER;
CREATE INDEX ledger_transfers_cause ON ledger_transfers (cause_user_id, seq) WHERE cause_user_id IS NOT NULL;
`;
