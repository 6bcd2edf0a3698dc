import { existsSync, readdirSync } from 'node:fs';
import { voidHold } from '../ledger';
import { floatOwners, openFloatsOf } from '../ledger/float';
import { inWriteTx } from '../ledger/tx';
import type { Db } from '../store/db';
import { FloatJournal, journalDir, journalFile } from './float-journal';
import { moveJournal } from './float-move';

export interface RecoveredFloats {
  owner: string;
  /** Journal moves posted now (each the charges of one float). */
  posted: number;
  /** Floats closed. */
  voided: number;
}

/**
 * Part of every engine start, after startLedger: the floats and journals of API processes that are
 * gone (a crash, a kill) are settled. An owner is gone when its journal's lock can be taken (the
 * process held it while it lived); a live server's journal is left alone, so a CLI command run
 * beside it changes nothing of its floats. Each dead owner's charges are posted from its floats
 * (each under its transfer id: posting twice is a no-op) and its floats voided, in one
 * transaction; then its journal is deleted.
 */
export function recoverFloats(db: Db, dataDir: string, nowMs: number): RecoveredFloats[] {
  const dir = journalDir(dataDir);
  const owners = new Set(floatOwners(db));
  if (existsSync(dir)) for (const name of readdirSync(dir)) if (name.endsWith('.db')) owners.add(name.slice(0, -3));
  const recovered: RecoveredFloats[] = [];
  for (const owner of owners) {
    let journal: FloatJournal;
    try {
      journal = new FloatJournal(journalFile(dataDir, owner));
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY') continue; // its process is alive
      throw err;
    }
    try {
      const moves = journal.claimMoves();
      const { moved, voided } = inWriteTx(db, () => {
        const posted = moveJournal(db, moves);
        const floats = openFloatsOf(db, owner);
        for (const h of floats) voidHold(db, { holdId: h.holdId, transferId: `${h.holdId}:void`, nowMs, memo: 'released at start: its API process had ended' });
        return { moved: posted, voided: floats.length };
      });
      journal.removeMoves(moved);
      if (moved.length || voided) recovered.push({ owner, posted: moved.length, voided });
    } finally {
      journal.close();
    }
  }
  return recovered;
}
