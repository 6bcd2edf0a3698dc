// Migration 068: a hold may belong to an API process instead of a job: a metering float
// (docs/decisions.md "Metering: a float answers charges while another connection writes").
// ledger_holds is rebuilt because SQLite cannot drop a NOT NULL from job_id; it holds one row per
// job (and per float), so the copy is small.
export default /* sql */ `
CREATE TABLE ledger_holds_068 (
  transfer_id  TEXT    PRIMARY KEY REFERENCES ledger_transfers (id),
  account_id   INTEGER NOT NULL REFERENCES ledger_accounts (id),
  -- The job the hold reserves for; NULL for a float.
  job_id       INTEGER,
  -- A float's owner: the API process that draws on it (the name of its journal file under
  -- <data dir>/metering/); NULL for a job's hold.
  float_owner  TEXT    CHECK (float_owner IS NULL OR length(float_owner) BETWEEN 1 AND 100),
  amount       INTEGER NOT NULL CHECK (amount >= 0),
  posted       INTEGER NOT NULL DEFAULT 0 CHECK (posted >= 0),
  voided       INTEGER NOT NULL DEFAULT 0 CHECK (voided >= 0),
  closed_at_ms INTEGER,
  CHECK (posted + voided <= amount),
  CHECK ((closed_at_ms IS NOT NULL) = (posted + voided = amount)),
  CHECK ((job_id IS NULL) <> (float_owner IS NULL))
);
INSERT INTO ledger_holds_068 (transfer_id, account_id, job_id, amount, posted, voided, closed_at_ms)
  SELECT transfer_id, account_id, job_id, amount, posted, voided, closed_at_ms FROM ledger_holds ORDER BY rowid;
DROP TABLE ledger_holds;
ALTER TABLE ledger_holds_068 RENAME TO ledger_holds;
CREATE INDEX ledger_holds_open ON ledger_holds (account_id) WHERE closed_at_ms IS NULL;
CREATE INDEX ledger_holds_job ON ledger_holds (job_id);
CREATE INDEX ledger_holds_float ON ledger_holds (float_owner, account_id) WHERE float_owner IS NOT NULL AND closed_at_ms IS NULL;
`;
