import { availableFor, ledgerWrites } from '../ledger';
import { dataVersionNow, dataVersionThisTurn } from '../store/change-stamp';
import type { Db } from '../store/db';

/**
 * The available balances of the users of this process's last group commit, as that commit left
 * them, for the balance check of the requests after it (Metering.reserve).
 *
 * Why: the balance read with an API key is stale once a group commit has charged its user, and the
 * check then read the account again, a read lock and a query for every group (bench "post details").
 * The commit reads them inside its own transaction instead, where the account's page is already in
 * hand and no lock is taken.
 *
 * They stay current while no other write of this process has moved the ledger (ledgerWrites) and
 * no other connection has committed (data_version, as this turn sees it): then the reader falls
 * back to the database, as before.
 */
export class CommittedBalances {
  private byUser = new Map<number, number>();
  private atLedgerWrite = -1;
  private dataVersion = -1;
  /** Read inside the commit's transaction; recorded by committed() once it has committed. */
  private reading: { byUser: Map<number, number>; dataVersion: number } | null = null;

  constructor(private readonly db: Db) {}

  /** Inside the commit's write transaction, last: the balances of its users as it leaves them. */
  read(userIds: Iterable<number>): void {
    const byUser = new Map<number, number>();
    for (const userId of userIds) {
      try {
        byUser.set(userId, availableFor(this.db, userId));
      } catch {
        // An unknown user: its charges failed, and a later check reads the database.
      }
    }
    this.reading = { byUser, dataVersion: dataVersionNow(this.db) };
  }

  /** The transaction committed: what read() saw is the ledger now. */
  committed(): void {
    if (!this.reading) return;
    this.byUser = this.reading.byUser;
    this.dataVersion = this.reading.dataVersion;
    this.atLedgerWrite = ledgerWrites(this.db);
    this.reading = null;
  }

  /** The transaction rolled back: nothing read in it stands. */
  rolledBack(): void {
    this.reading = null;
  }

  /** The user's available balance as the last commit left it, while still current; else undefined. */
  availableOf(userId: number): number | undefined {
    if (this.atLedgerWrite !== ledgerWrites(this.db) || this.dataVersion !== dataVersionThisTurn(this.db)) return undefined;
    return this.byUser.get(userId);
  }
}
