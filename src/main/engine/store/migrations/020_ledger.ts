// Migration 020. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- Credits as double-entry bookkeeping on TigerBeetle's rules (src/main/engine/ledger/README.md).
-- Every movement is a transfer from one account (debit) to another (credit); the four balance
-- columns are running sums of the transfers, kept in the same transaction as the transfer and
-- re-checked against the transfers by checkInvariants() at every start.
CREATE TABLE ledger_accounts (
  id              INTEGER PRIMARY KEY,
  -- 'grants': where granted credits come from (its debits grow); 'usage': where spent credits go;
  -- 'user': one per api user, the only kind that must never go below zero.
  kind            TEXT    NOT NULL CHECK (kind IN ('grants', 'usage', 'user')),
  user_id         INTEGER UNIQUE REFERENCES api_users (id),
  debits_pending  INTEGER NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
  debits_posted   INTEGER NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
  credits_pending INTEGER NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
  credits_posted  INTEGER NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
  CHECK ((kind = 'user') = (user_id IS NOT NULL)),
  -- TigerBeetle's debits_must_not_exceed_credits, as a last line of defence under the code's check.
  CHECK (kind <> 'user' OR debits_pending + debits_posted <= credits_posted)
);
INSERT INTO ledger_accounts (id, kind) VALUES (1, 'grants'), (2, 'usage');

-- Append-only: a transfer is never updated or deleted (the triggers below refuse it).
-- id is chosen by the caller, so a retry with the same id is recognised and changes nothing.
CREATE TABLE ledger_transfers (
  seq               INTEGER PRIMARY KEY,
  id                TEXT    NOT NULL UNIQUE CHECK (length(id) BETWEEN 1 AND 200),
  -- 'posted': moves credits now; 'pending': a hold (reserves, moves nothing yet);
  -- 'post_pending': posts part of a hold; 'void_pending': releases the rest of a hold.
  kind              TEXT    NOT NULL CHECK (kind IN ('posted', 'pending', 'post_pending', 'void_pending')),
  debit_account_id  INTEGER NOT NULL REFERENCES ledger_accounts (id),
  credit_account_id INTEGER NOT NULL REFERENCES ledger_accounts (id),
  amount            INTEGER NOT NULL CHECK (amount >= 0),
  pending_id        TEXT    REFERENCES ledger_transfers (id),
  job_id            INTEGER,
  memo              TEXT    CHECK (memo IS NULL OR length(memo) <= 500),
  created_at_ms     INTEGER NOT NULL,
  CHECK (debit_account_id <> credit_account_id),
  CHECK ((kind IN ('post_pending', 'void_pending')) = (pending_id IS NOT NULL))
);
CREATE INDEX ledger_transfers_debit ON ledger_transfers (debit_account_id, seq);
CREATE INDEX ledger_transfers_credit ON ledger_transfers (credit_account_id, seq);
CREATE INDEX ledger_transfers_pending ON ledger_transfers (pending_id) WHERE pending_id IS NOT NULL;
CREATE TRIGGER ledger_transfers_no_update BEFORE UPDATE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger transfers are append-only'); END;
CREATE TRIGGER ledger_transfers_no_delete BEFORE DELETE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger transfers are append-only'); END;

-- The state of each hold (a 'pending' transfer): how much of it was posted and voided so far.
-- Derivable from the transfers (checkInvariants re-derives it); kept so the hot path reads one row.
CREATE TABLE ledger_holds (
  transfer_id  TEXT    PRIMARY KEY REFERENCES ledger_transfers (id),
  account_id   INTEGER NOT NULL REFERENCES ledger_accounts (id),
  job_id       INTEGER NOT NULL,
  amount       INTEGER NOT NULL CHECK (amount >= 0),
  posted       INTEGER NOT NULL DEFAULT 0 CHECK (posted >= 0),
  voided       INTEGER NOT NULL DEFAULT 0 CHECK (voided >= 0),
  closed_at_ms INTEGER,
  CHECK (posted + voided <= amount),
  CHECK ((closed_at_ms IS NOT NULL) = (posted + voided = amount))
);
CREATE INDEX ledger_holds_open ON ledger_holds (account_id) WHERE closed_at_ms IS NULL;
CREATE INDEX ledger_holds_job ON ledger_holds (job_id);

-- Every api user has an account from the moment it exists, with an opening grant of 100,000
-- credits (5,000 timeline pages; docs/decisions.md "Credits: prices and opening balance"), so a
-- new key works at once; 'skein credits grant' adds more.
CREATE TRIGGER api_users_ledger_account AFTER INSERT ON api_users
BEGIN
  INSERT INTO ledger_accounts (kind, user_id, credits_posted) VALUES ('user', NEW.id, 100000);
  UPDATE ledger_accounts SET debits_posted = debits_posted + 100000 WHERE id = 1;
  INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, memo, created_at_ms)
  VALUES ('grant:opening:' || NEW.id, 'posted', 1, (SELECT id FROM ledger_accounts WHERE user_id = NEW.id),
          100000, 'opening balance', NEW.created_at_ms);
END;

-- Users that exist already (the built-in 'app') get the same account and opening grant.
INSERT INTO ledger_accounts (kind, user_id, credits_posted) SELECT 'user', id, 100000 FROM api_users;
UPDATE ledger_accounts SET debits_posted = debits_posted + 100000 * (SELECT count(*) FROM api_users) WHERE id = 1;
INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, memo, created_at_ms)
SELECT 'grant:opening:' || u.id, 'posted', 1, a.id, 100000, 'opening balance', u.created_at_ms
FROM api_users u JOIN ledger_accounts a ON a.user_id = u.id ORDER BY u.id;
`;
