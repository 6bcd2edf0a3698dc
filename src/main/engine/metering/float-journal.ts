import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../store/db';
import { collapseMemos, requestsMemo } from './charge-memo';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-dir';

/** One group of a user's request charges drawn on a float while the database's write lock was taken. */
export interface JournalRow {
  /** Its first request's charge id: unique, so the row is never written twice. */
  transferId: string;
  holdId: string;
  userId: number;
  amount: number;
  /** How many requests it pays for. */
  requests: number;
  memo: string;
  createdAtMs: number;
}

/**
 * Journal rows claimed together for one posting, per float: posted as one transfer under the first
 * row's id for their sum, so a move tried again (its commit failed, or the process died before the
 * rows left the journal) finds its transfer and posts nothing twice.
 */
export interface JournalMove {
  move: number;
  transferId: string;
  holdId: string;
  userId: number;
  amount: number;
  memo: string;
  createdAtMs: number;
}

/** Where API processes keep their journals: <data dir>/metering/<owner>.db. */
export const journalDir = (dataDir: string): string => join(dataDir, 'metering');
export const journalFile = (dataDir: string, owner: string): string => join(journalDir(dataDir), `${owner}.db`);

const SCHEMA = `CREATE TABLE IF NOT EXISTS charges (
  transfer_id   TEXT    PRIMARY KEY,
  hold_id       TEXT    NOT NULL,
  user_id       INTEGER NOT NULL,
  amount        INTEGER NOT NULL CHECK (amount >= 1),
  requests      INTEGER NOT NULL CHECK (requests >= 1),
  memo          TEXT    NOT NULL,
  created_at_ms INTEGER NOT NULL,
  -- The move that claimed it for posting (claimMoves); NULL until then.
  move          INTEGER
)`;

/**
 * An API process's own small database of charges not yet in the ledger. No other connection writes
 * it, so a commit never waits for a lock (~30 µs: WAL, synchronous NORMAL like skein.db, so it is as
 * durable as the ledger it stands in for). It is opened in EXCLUSIVE locking mode and written at
 * once, so the process holds its lock while it lives and the operating system drops the lock when
 * it dies: a start that can take the lock knows the owner is gone and moves its charges
 * (float-recovery.ts).
 */
export class FloatJournal {
  private readonly db: Db;
  private readonly insert: Database.Statement;

  /** Opens (or creates) the journal and takes its lock; throws SQLITE_BUSY when a live process has it. */
  constructor(readonly file: string) {
    mkdirSync(join(file, '..'), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Created private before SQLite opens it: SQLite gives its -wal file the database file's mode.
    closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
    this.db = new Database(file, { timeout: 0 }) as Db;
    try {
      this.db.pragma('locking_mode = EXCLUSIVE');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      // A write takes the exclusive lock and keeps it: the process's liveness, seen by other processes.
      this.db.exec(SCHEMA);
      this.db.exec('BEGIN IMMEDIATE; COMMIT');
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.insert = this.db.prepare('INSERT OR IGNORE INTO charges VALUES (?, ?, ?, ?, ?, ?, ?, NULL)');
  }

  /** Writes the rows in one commit: once it returns, the charges survive the process. */
  add(rows: readonly JournalRow[]): void {
    this.db.transaction(() => {
      for (const r of rows) this.insert.run(r.transferId, r.holdId, r.userId, r.amount, r.requests, r.memo, r.createdAtMs);
    })();
  }

  /**
   * Claims every row not yet claimed for a new move (one journal commit) and returns every claimed
   * move not yet removed, one per move and float: what to post. A settle after a lock wait finds a
   * few hundred rows (one per request group answered meanwhile); posting each alone cost ~30 µs,
   * ~7 ms for the request that found the lock free (bench "API p99 during an import").
   */
  claimMoves(): JournalMove[] {
    this.db.transaction(() => {
      this.db.prepare('UPDATE charges SET move = (SELECT coalesce(max(move), 0) + 1 FROM charges) WHERE move IS NULL').run();
    })();
    const moves = this.db
      .prepare(
        `SELECT move, hold_id AS holdId, user_id AS userId, sum(amount) AS amount, sum(requests) AS requests,
                min(rowid) AS first, max(created_at_ms) AS createdAtMs, group_concat(memo, ', ') AS memos
         FROM charges WHERE move IS NOT NULL GROUP BY move, hold_id ORDER BY first`,
      )
      .all() as (Omit<JournalMove, 'transferId' | 'memo'> & { requests: number; first: number; memos: string })[];
    const idOf = this.db.prepare('SELECT transfer_id FROM charges WHERE rowid = ?').pluck();
    return moves.map(({ first, requests, memos, ...m }) => ({ ...m, transferId: idOf.get(first) as string, memo: requestsMemo(requests, collapseMemos([memos])) }));
  }

  /** The journal is empty: nothing drawn waits to be posted. */
  isEmpty(): boolean {
    return this.db.prepare('SELECT 1 FROM charges LIMIT 1').get() === undefined;
  }

  /** Drawn and not yet posted, per hold. */
  journaledByHold(): Map<string, number> {
    const rows = this.db.prepare('SELECT hold_id AS holdId, sum(amount) AS amount FROM charges GROUP BY hold_id').all() as { holdId: string; amount: number }[];
    return new Map(rows.map((r) => [r.holdId, r.amount]));
  }

  /** These moves are in the ledger now. */
  removeMoves(moves: readonly Pick<JournalMove, 'move' | 'holdId'>[]): void {
    const del = this.db.prepare('DELETE FROM charges WHERE move = ? AND hold_id = ?');
    this.db.transaction(() => {
      for (const m of moves) del.run(m.move, m.holdId);
    })();
  }

  /** Closes it and, when every charge is in the ledger, deletes its files. */
  close(): void {
    const empty = this.isEmpty();
    this.db.close();
    if (empty) for (const suffix of ['', '-wal', '-shm']) rmSync(this.file + suffix, { force: true });
  }
}
