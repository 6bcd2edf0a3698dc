import { charge, postFromHold } from '../ledger';
import type { Db } from '../store/db';
import type { JournalMove } from './float-journal';

/**
 * Inside a write transaction: posts journal moves from their floats, each under its own transfer
 * id, so a move posted before (a commit whose journal cleanup did not happen, a crash in between)
 * is a no-op. Returns the moves now in the ledger; the caller removes them from the journal once
 * the transaction has committed.
 */
export function moveJournal(db: Db, moves: readonly JournalMove[]): JournalMove[] {
  const moved: JournalMove[] = [];
  for (const r of moves) {
    const memo = r.memo;
    try {
      postFromHold(db, { holdId: r.holdId, transferId: r.transferId, amount: r.amount, nowMs: r.createdAtMs, memo });
      moved.push(r);
    } catch {
      // The float closed without this charge: only a journal put back beside an older database does
      // that. The request was answered, so it is charged from the balance; if even that is short,
      // the move stays in the journal and is tried again at the next commit.
      try {
        charge(db, { transferId: r.transferId, userId: r.userId, amount: r.amount, nowMs: r.createdAtMs, memo });
        moved.push(r);
      } catch {
        // Stays in the journal.
      }
    }
  }
  return moved;
}
