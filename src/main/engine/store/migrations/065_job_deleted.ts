// Migration 065. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- A deleted job (issue 15: Jobs > Delete job, DELETE /jobs/<id>) is a tombstone, not a removed
-- row: its id stays taken, so the ledger's transfer ids that name it (job:<id>:hold,
-- job:<id>:rows:<offset>) can never be reused by a later job (an INTEGER PRIMARY KEY without
-- AUTOINCREMENT gives a deleted largest id out again), and webhook_deliveries and the upstream
-- spend book keep the job they name. Only a finished job (success or error) can be deleted.
ALTER TABLE jobs ADD COLUMN deleted_at_ms INTEGER CHECK (deleted_at_ms IS NULL OR status IN ('success', 'error'));
`;
