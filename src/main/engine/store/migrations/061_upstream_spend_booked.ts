// Migration 061: the spend book's lines from before 059 (the upstream account) booked in the ledger.
// Apart from 059 so the ledger's own schema does not need the upstream's tables (the ledger tests
// and the simulation build a database of the ledger's migrations alone). Applied once, in its own
// transaction, by store/migrate.ts.
export default /* sql */ `
-- What was spent before migration 059, booked now under the same ids ('upstream:' + the spend
-- line's id), at its own time, so the account holds the whole history.
INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, job_id, memo, created_at_ms, cause_user_id)
SELECT 'upstream:' || s.id, 'posted',
       (SELECT id FROM ledger_accounts WHERE kind = 'upstream_key'), (SELECT id FROM ledger_accounts WHERE kind = 'upstream'),
       s.items, s.job_id, substr(s.via || ': ' || s.request, 1, 500), s.at_ms,
       coalesce(s.api_user_id, j.user_id, CASE s.via WHEN 'app' THEN 1 END)
FROM upstream_spend s LEFT JOIN jobs j ON j.id = s.job_id ORDER BY s.seq;
UPDATE ledger_accounts SET debits_posted = (SELECT total(items) FROM upstream_spend) WHERE kind = 'upstream_key';
UPDATE ledger_accounts SET credits_posted = (SELECT total(items) FROM upstream_spend) WHERE kind = 'upstream';
`;
