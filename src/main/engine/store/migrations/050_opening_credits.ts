// Migration 050. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- A new api user's opening balance is the amount asked for (skein keys create --credits N, the
-- Settings form), not a fixed 100,000 with N on top. A trigger cannot be told an amount, so the
-- grant moves to the code that creates the user (keys/create.ts, ledger openingGrant: the same
-- transfer id grant:opening:<user id>, none for 0), in the same transaction as the user row.
-- The trigger still opens the account, so every user has one from the moment it exists.
-- Users that exist keep their accounts and transfers as they are: history is not rewritten.
DROP TRIGGER api_users_ledger_account;
CREATE TRIGGER api_users_ledger_account AFTER INSERT ON api_users
BEGIN
  INSERT INTO ledger_accounts (kind, user_id) VALUES ('user', NEW.id);
END;
`;
