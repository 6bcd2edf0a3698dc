// Migration 063: webhook secrets in the OS keychain (issue 13 point 13). Applied once, in its own
// transaction, by store/migrate.ts.
export default /* sql */ `
-- Where a keychain answers, a user's webhook secret is kept there (service "Skein", the account
-- named here) and webhook_secret is NULL; where none answers it stays in webhook_secret (the data
-- dir is 0700, the file 0600) and this is NULL. Never both: the database says where the secret
-- is, and holds it only where there is nowhere else. Code: engine/webhooks/secret-store.ts.
ALTER TABLE api_users ADD COLUMN webhook_secret_ref TEXT
  CHECK (webhook_secret_ref IS NULL OR webhook_secret IS NULL);

-- A delivery whose secret cannot be read (the keychain is locked, gone, or lacks the entry) is not
-- sent unsigned: it stays 'pending', its error says why, and it is tried again from this time on.
ALTER TABLE webhook_deliveries ADD COLUMN retry_at_ms INTEGER;
`;
