import type { Clock } from '../clock';
import { availableFor, chargeGroup, type ChargeInput, type ChargeOutcome, MAX_MEMO_CHARS, postFromHold, voidHold } from '../ledger';
import { openFloat, openFloatsOf } from '../ledger/float';
import { inWriteTx, ledgerWrites } from '../ledger/tx';
import { type FloatKeeper, keepFloats } from '../ledger/float-keeper';
import type { Hold } from '../ledger';
import type { Db } from '../store/db';
import { FloatJournal, journalFile, type JournalMove, type JournalRow } from './float-journal';
import { moveJournal } from './float-move';
import { collapseMemos } from './charge-memo';

/**
 * A float's size: what the process may answer for one user while the lock is taken. An import's
 * transaction holds the lock ~270 ms (1,000 records); at the bench's pace (one request at a time,
 * ~3 ms each, 1 credit) that is ~90 credits, and a search page costs up to 20: 1,000 covers a
 * lock hold at every pace the rate limit lets through (120 a minute by default).
 */
export const FLOAT_CREDITS = 1_000;
/** A free commit tops a float up once less than this is left undrawn. */
export const FLOAT_REFILL_BELOW = FLOAT_CREDITS / 2;
/** At most this many users' open floats are kept between two ledger writes (openOf). */
const MAX_USERS_KNOWN = 1_024;
/** Floats are closed once no charge has waited for the lock for this long. */
export const FLOAT_IDLE_MS = 60_000;

/** The ledger line of a float's release: what it did not spend is available again. */
export const FLOAT_CLOSED_MEMO = "the API server's reserve released: what it did not spend is available again";

/** A queued charge as the group commit holds it. */
interface Pending {
  input: ChargeInput;
}

/**
 * The metering floats of one API process (ledger/float.ts says why they are safe): which users have
 * one, what is drawn on them in the journal, when they are opened, topped up and closed.
 *
 * - A float is opened for a user at the first commit that had to wait for another connection's
 *   write lock (`noteContention`), when the lock is free again: a float is taken from the ledger,
 *   so it can only be placed while the lock is free.
 * - While the lock is taken, `drawWhileBusy` answers a user's charges from the float's undrawn
 *   credits by writing them to the journal; what the float cannot cover waits for the lock.
 * - Every commit that gets the lock first posts the journal's charges from their floats (`settle`),
 *   charges the group from the float (`chargeUser`), and tops floats up or closes them (`maintain`).
 */
export class Floats implements FloatKeeper {
  private readonly journal: FloatJournal;
  /** Drawn in the journal and not yet posted, per hold (the journal's sums, read after each change). */
  private journaled = new Map<string, number>();
  /** Posted by this transaction's settle() and still counted in `journaled` until afterCommit(). */
  private settledInTx = new Map<string, number>();
  /** False until this process opens a float: a balance read then costs no query. */
  private mayHaveFloats = false;
  private contendedAtMs = -Infinity;
  private nextFloat = 0;
  /** After shutdown() every method is a no-op: the metering then works as without floats. */
  private closed = false;
  /** openOf's answers, per user, with the ledger write count they were read at. */
  private readonly openByUser = new Map<number, { stamp: number; holds: Hold[] }>();

  constructor(
    private readonly db: Db,
    dataDir: string,
    readonly owner: string,
    private readonly clock: Clock,
  ) {
    this.journal = new FloatJournal(journalFile(dataDir, owner));
    keepFloats(db, this);
  }

  /** A charge had to wait for another connection's write lock. */
  noteContention(): void {
    this.contendedAtMs = this.clock.nowMs();
  }

  private floatOf(userId: number): Hold | undefined {
    return this.mayHaveFloats && !this.closed ? this.openOf(userId)[0] : undefined;
  }

  /**
   * This process's open floats of a user. Outside a transaction they are read again only after a
   * write of this process through the ledger (`ledgerWrites`): only this process writes its
   * floats' rows (another settles them only once it is gone, float-recovery.ts), so between two of
   * its writes they cannot change. Inside a transaction, which may still roll back, always read.
   * Why: a reservation asks on every request, and read each time it cost ~30 µs of the ~80 a post
   * details request costs (bench "post details" with floats open: 155 to 182 µs a request).
   */
  private openOf(userId: number): Hold[] {
    if (this.db.inTransaction) return openFloatsOf(this.db, this.owner, userId);
    const stamp = ledgerWrites(this.db);
    const known = this.openByUser.get(userId);
    if (known?.stamp === stamp) return known.holds;
    if (this.openByUser.size >= MAX_USERS_KNOWN) this.openByUser.clear();
    const holds = openFloatsOf(this.db, this.owner, userId);
    this.openByUser.set(userId, { stamp, holds });
    return holds;
  }

  shareOf(userId: number): { free: number; journaled: number } {
    if (!this.mayHaveFloats || this.closed) return { free: 0, journaled: 0 };
    let free = 0;
    let journaled = 0;
    for (const h of this.openOf(userId)) {
      const drawn = this.journaled.get(h.holdId) ?? 0;
      free += Math.max(0, h.remaining - drawn);
      journaled += drawn;
    }
    return { free, journaled };
  }

  /**
   * While the lock is taken: answers what each user's float covers (in order, until a charge does
   * not fit) by writing it to the journal in one commit. Returns the charges answered; the rest
   * wait for the lock. Nothing is answered if the journal cannot be written.
   */
  drawWhileBusy<Q extends Pending>(byUser: Map<number, Q[]>): Q[] {
    const answered: Q[] = [];
    const rows: JournalRow[] = [];
    if (!this.mayHaveFloats || this.closed) return answered;
    for (const [userId, mine] of byUser) {
      const hold = this.floatOf(userId);
      if (!hold) continue;
      let free = hold.remaining - (this.journaled.get(hold.holdId) ?? 0);
      const covered: Q[] = [];
      for (const q of mine) {
        if (q.input.amount > free) break;
        free -= q.input.amount;
        covered.push(q);
      }
      if (covered.length === 0) continue;
      const first = covered[0]!.input;
      rows.push({
        transferId: first.transferId,
        holdId: hold.holdId,
        userId,
        amount: covered.reduce((sum, q) => sum + q.input.amount, 0),
        requests: covered.length,
        // The requests' own memos; the move that posts the rows says how many there were.
        memo: collapseMemos(covered.map((q) => q.input.memo ?? '')).slice(0, MAX_MEMO_CHARS),
        createdAtMs: first.nowMs,
      });
      answered.push(...covered);
    }
    if (rows.length === 0) return answered;
    try {
      this.journal.add(rows);
    } catch {
      // A full disk, most likely: the charges wait for the lock instead, as without a float.
      return [];
    }
    this.journaled = this.journal.journaledByHold();
    return answered;
  }

  /** True when a commit has float work even with no charge queued: a journal to post, or floats to close. */
  wantsWrite(): boolean {
    return !this.closed && (this.journaled.size > 0 || (this.mayHaveFloats && this.idle()));
  }

  private idle(): boolean {
    return this.clock.nowMs() - this.contendedAtMs >= FLOAT_IDLE_MS;
  }

  /** Inside the commit's write transaction, first: posts the journal's charges. Returns what to remove after the commit. */
  settle(): JournalMove[] {
    if (this.journaled.size === 0 || this.closed) return [];
    let moves: JournalMove[];
    try {
      moves = this.journal.claimMoves();
    } catch {
      return []; // the journal cannot be written now (a full disk): its charges wait, the group's do not
    }
    const moved = moveJournal(this.db, moves);
    this.settledInTx = new Map();
    for (const m of moved) this.settledInTx.set(m.holdId, (this.settledInTx.get(m.holdId) ?? 0) + m.amount);
    return moved;
  }

  /** Drawn on the hold in the journal and not posted, as this transaction sees it. */
  private unposted(holdId: string): number {
    return (this.journaled.get(holdId) ?? 0) - (this.settledInTx.get(holdId) ?? 0);
  }

  /**
   * Inside the commit's write transaction: one user's charges, from the float while it covers them
   * (one post_pending under the first request's id), the rest as a plain group charge once the
   * float's remainder is given back, so a request is refused only when the user truly lacks the credits.
   * Undefined when the user has no float here (the caller charges the group as usual).
   */
  chargeUser(userId: number, amounts: readonly Pending['input'][], memo: (inputs: readonly Pending['input'][]) => string): ChargeOutcome[] | undefined {
    const hold = this.floatOf(userId);
    if (!hold) return undefined;
    // A savepoint of its own: if the rest's charge throws, the float's post goes with it.
    return inWriteTx(this.db, () => this.chargeFrom(hold, userId, amounts, memo));
  }

  private chargeFrom(hold: Hold, userId: number, amounts: readonly Pending['input'][], memo: (inputs: readonly Pending['input'][]) => string): ChargeOutcome[] {
    // What the journal still holds on this float is spent: only the rest may pay (a settle that
    // could not read the journal leaves rows unposted).
    const start = hold.remaining - this.unposted(hold.holdId);
    let free = start;
    let n = 0;
    while (n < amounts.length && amounts[n]!.amount <= free) free -= amounts[n++]!.amount;
    const outcomes: ChargeOutcome[] = [];
    if (n > 0) {
      const covered = amounts.slice(0, n);
      const first = covered[0]!;
      const sum = start - free;
      try {
        const result = postFromHold(this.db, { holdId: hold.holdId, transferId: first.transferId, amount: sum, nowMs: first.nowMs, memo: memo(covered) });
        for (let i = 0; i < n; i++) outcomes.push({ ok: result });
      } catch (err) {
        for (let i = 0; i < n; i++) outcomes.push({ err });
      }
    }
    if (n < amounts.length) {
      const rest = amounts.slice(n);
      if (free > 0) this.close(hold, rest[0]!.nowMs);
      outcomes.push(...chargeGroup(this.db, { transferId: rest[0]!.transferId, userId, amounts: rest.map((i) => i.amount), nowMs: rest[0]!.nowMs, memo: memo(rest) }));
    }
    return outcomes;
  }

  /**
   * Inside the commit's write transaction, last. While charges have waited for the lock in the last
   * FLOAT_IDLE_MS, each user of the group gets a float (or a fresh one when less than
   * FLOAT_REFILL_BELOW is left); after that, every float is closed.
   */
  maintain(userIds: Iterable<number>): void {
    if (this.closed) return;
    const nowMs = this.clock.nowMs();
    if (this.idle()) {
      if (this.mayHaveFloats) for (const h of openFloatsOf(this.db, this.owner)) this.tryClose(h, nowMs);
      return;
    }
    for (const userId of userIds) {
      const hold = this.floatOf(userId);
      if (hold && hold.remaining >= FLOAT_REFILL_BELOW) continue;
      try {
        // A savepoint per user: a float that cannot be placed never costs the group its charges.
        inWriteTx(this.db, () => {
          if (hold) this.close(hold, nowMs);
          const amount = Math.min(FLOAT_CREDITS, availableFor(this.db, userId));
          if (amount < 1) return;
          openFloat(this.db, { transferId: `float:${this.owner}:${this.nextFloat++}`, userId, owner: this.owner, amount, nowMs });
          this.mayHaveFloats = true;
        });
      } catch {
        // The user's charges then wait for the lock, as without a float.
      }
    }
  }

  /** close() in a savepoint of its own: a float that cannot be closed now stays open, and the commit goes on. */
  private tryClose(hold: Hold, nowMs: number): void {
    try {
      inWriteTx(this.db, () => this.close(hold, nowMs));
    } catch {
      // Closed at a later commit.
    }
  }

  /**
   * Voids what is left of a float, inside the caller's transaction. What was drawn on it in the
   * journal is posted first: a void releases the whole remainder, journaled credits included, and
   * those are spent (the ledger simulation found this when a top-up closed a float with charges
   * still in the journal). Throws if the journal cannot be read, so the float stays open.
   */
  private close(hold: Hold, nowMs: number): void {
    if ((this.journaled.get(hold.holdId) ?? 0) > 0) {
      moveJournal(this.db, this.journal.claimMoves().filter((m) => m.holdId === hold.holdId));
    }
    voidHold(this.db, { holdId: hold.holdId, transferId: `${hold.holdId}:void`, nowMs, memo: FLOAT_CLOSED_MEMO });
  }

  /** After the commit: the posted charges leave the journal. */
  afterCommit(moved: readonly JournalMove[]): void {
    this.settledInTx = new Map();
    if (this.closed) return;
    if (moved.length) {
      try {
        this.journal.removeMoves(moved);
      } catch {
        // Left in the journal: posting them again is a no-op (their transfer ids), so the next commit retries.
      }
      this.journaled = this.journal.journaledByHold();
    }
    if (this.mayHaveFloats && this.idle() && openFloatsOf(this.db, this.owner).length === 0) this.mayHaveFloats = false;
  }

  /** The commit's transaction failed: nothing settle() posted is in the ledger. */
  afterRollback(): void {
    this.settledInTx = new Map();
  }

  /** FloatKeeper: a job of this user needs the credits (inside its transaction). */
  release(userId: number, nowMs: number): void {
    if (this.closed) return;
    moveJournal(this.db, this.journal.claimMoves().filter((m) => m.userId === userId));
    for (const h of openFloatsOf(this.db, this.owner, userId)) this.close(h, nowMs);
    // The rows stay in the journal until a commit of the group removes them: this transaction may
    // still roll back, and posting them again is a no-op.
  }

  /**
   * Before the database closes: every journaled charge posted and every float closed, waiting for
   * the lock as long as the connection's busy timeout, then the journal closed (and deleted when
   * empty). If that fails, the next start's recovery finds the journal unlocked and does it.
   */
  shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    keepFloats(this.db, null);
    const nowMs = this.clock.nowMs();
    try {
      const moved = inWriteTx(this.db, () => {
        const posted = moveJournal(this.db, this.journal.claimMoves());
        for (const h of openFloatsOf(this.db, this.owner)) this.close(h, nowMs);
        return posted;
      });
      this.journal.removeMoves(moved);
    } catch {
      // Left for float-recovery.ts.
    }
    this.journal.close();
  }
}

/**
 * The process's floats, or null when its journal cannot be opened (a read-only or full disk): the
 * metering then works as without floats, every charge waiting for the lock.
 */
export function openFloats(db: Db, dataDir: string, owner: string, clock: Clock): Floats | null {
  try {
    return new Floats(db, dataDir, owner, clock);
  } catch (err) {
    console.error(`Skein: charges will wait for other writers (the metering journal could not be opened: ${(err as Error).message})`);
    return null;
  }
}
