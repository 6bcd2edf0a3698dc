import type { Db } from '../store/db';
import { addTransferSums, copySums, maxTransferSeq, type SumsByAccount } from './sums';

// The ledger checkpoint (migration 057): "the transfers up to seq N sum to these figures per
// account". It lets a start check the running balances from N on instead of re-deriving every
// transfer ever charged (1.07 s per million transfers before). Sound by construction:
// - its sums are always derived from transfers (a previous checkpoint's sums plus the transfers
//   after it), never copied from the running balances, so a wrong balance can never be
//   checkpointed into looking right: the next start still compares it with the transfers;
// - its seq and its sums are written in one transaction, and only over the checkpoint they were
//   derived from (compare-and-set on the old seq), so a crash or a second process racing leaves
//   either the old checkpoint or the new one, each true;
// - transfers are append-only and seq only grows, so "the transfers up to N" never changes.

export type CheckpointMaker = 'start' | 'running' | 'doctor';

export interface Checkpoint {
  seq: number;
  madeAtMs: number;
  madeBy: string;
  sums: SumsByAccount;
}

export function readCheckpoint(db: Db): Checkpoint {
  const row = db.prepare('SELECT seq, made_at_ms, made_by FROM ledger_checkpoint WHERE id = 1').get() as
    | { seq: number; made_at_ms: number; made_by: string }
    | undefined;
  const sums: SumsByAccount = new Map();
  if (!row) return { seq: 0, madeAtMs: 0, madeBy: 'none', sums };
  for (const r of db.prepare('SELECT account_id, debits_pending, debits_posted, credits_pending, credits_posted FROM ledger_checkpoint_sums').all() as {
    account_id: number;
    debits_pending: number;
    debits_posted: number;
    credits_pending: number;
    credits_posted: number;
  }[]) {
    sums.set(r.account_id, { dq: r.debits_pending, dp: r.debits_posted, cq: r.credits_pending, cp: r.credits_posted });
  }
  return { seq: row.seq, madeAtMs: row.made_at_ms, madeBy: row.made_by, sums };
}

/**
 * Replaces the checkpoint with `sums` as of `seq`, in one write transaction, when the checkpoint
 * is still the one at `fromSeq` (the sums were derived from it) or, for the doctor's full scan
 * (fromSeq null), older than `seq`. Returns whether it was written.
 */
export function writeCheckpoint(db: Db, p: { fromSeq: number | null; seq: number; sums: SumsByAccount; nowMs: number; by: CheckpointMaker }): boolean {
  const write = db.transaction((): boolean => {
    const current = db.prepare('SELECT seq FROM ledger_checkpoint WHERE id = 1').get() as { seq: number } | undefined;
    if (!current) return false;
    if (p.fromSeq === null ? current.seq >= p.seq : current.seq !== p.fromSeq || p.seq <= current.seq) return false;
    db.prepare('DELETE FROM ledger_checkpoint_sums').run();
    const insert = db.prepare('INSERT INTO ledger_checkpoint_sums (account_id, debits_pending, debits_posted, credits_pending, credits_posted) VALUES (?, ?, ?, ?, ?)');
    for (const [id, s] of p.sums) insert.run(id, s.dq, s.dp, s.cq, s.cp);
    db.prepare('UPDATE ledger_checkpoint SET seq = ?, made_at_ms = ?, made_by = ? WHERE id = 1').run(p.seq, p.nowMs, p.by);
    return true;
  });
  return write.immediate();
}

/**
 * Moves the checkpoint over at most `maxTransfers` more transfers: derived from the transfers
 * alone (they never change), so it needs no snapshot of the balances and holds no lock while it
 * reads. Returns the transfers it covered (0 when it is caught up or another process moved it).
 */
export function advanceCheckpoint(db: Db, nowMs: number, maxTransfers: number): number {
  const next = nextCheckpoint(db, maxTransfers);
  return next && writeCheckpoint(db, { ...next, nowMs, by: 'running' }) ? next.seq - next.fromSeq : 0;
}

/** The checkpoint over at most `maxTransfers` more transfers, read but not written; null when caught up. */
export function nextCheckpoint(db: Db, maxTransfers: number): { fromSeq: number; seq: number; sums: SumsByAccount } | null {
  const from = readCheckpoint(db);
  const seq = Math.min(maxTransferSeq(db), from.seq + maxTransfers);
  if (seq <= from.seq) return null;
  return { fromSeq: from.seq, seq, sums: addTransferSums(db, copySums(from.sums), from.seq, seq) };
}
