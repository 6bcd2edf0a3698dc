// Migration 057: the ledger's checkpoint (issue 17). Applied once, in its own transaction, by
// store/migrate.ts.
export default /* sql */ `
-- "As of transfer seq N, each account's transfers sum to these four figures." Every start then
-- re-derives only the transfers after N (a range scan on seq) instead of all of them (1.07 s per
-- million transfers): checkpointed sums + sums after N must equal the accounts' running balances.
-- Written in one transaction with the sums it claims, and only from sums derived from the
-- transfers themselves (never copied from the running balances it is meant to check); the full
-- re-derivation is 'skein doctor' (src/main/engine/ledger/checkpoint.ts, docs/decisions.md).
CREATE TABLE ledger_checkpoint (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  seq        INTEGER NOT NULL CHECK (seq >= 0),
  made_at_ms INTEGER NOT NULL,
  -- 'migration': seq 0, nothing summed yet; 'start': a clean start; 'running': the engine's
  -- periodic advance; 'doctor': a clean full scan.
  made_by    TEXT    NOT NULL CHECK (made_by IN ('migration', 'start', 'running', 'doctor'))
);
-- Seq 0 sums nothing: true of every ledger, so the first start re-derives everything once.
INSERT INTO ledger_checkpoint (id, seq, made_at_ms, made_by) VALUES (1, 0, 0, 'migration');

-- One row per account with transfers at or before the checkpoint's seq (accounts are few: one per
-- api user, plus grants and usage); an account without a row sums to zero.
CREATE TABLE ledger_checkpoint_sums (
  account_id      INTEGER PRIMARY KEY REFERENCES ledger_accounts (id),
  debits_pending  INTEGER NOT NULL,
  debits_posted   INTEGER NOT NULL,
  credits_pending INTEGER NOT NULL,
  credits_posted  INTEGER NOT NULL
);
`;
