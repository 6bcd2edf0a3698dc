import type { Clock } from '../clock';
import { fail } from '../errors';
import type { IdSource } from '../ids';
import { availableFor, balanceOf, charge, findTransfer, ledgerWrites, MAX_MEMO_CHARS, openHolds } from '../ledger';
import { prep } from '../ledger/prep';
import { notEnoughCredits } from '../ledger/messages';
import type { Balance, Hold, TransferResult } from '../ledger';
import { RateLimiter, type RateState, rateLimitHeaders, retryAfterSeconds, retryHeaders } from '../limits';
import type { Db } from '../store/db';
import { DEFAULT_MAX_COST, priceOf } from './prices';
import { GroupCommit } from './group-commit';
import { type Floats, openFloats } from './floats';
import { type Reservation, Reservations } from './reservations';
import { CommittedBalances } from './committed-balances';
import { whenWriteFree } from '../store/when-write-free';

export interface Admission {
  userId: number;
  rate: RateState;
  /** Credits promised to this request until it is charged or ends. */
  reservation: Reservation;
}

export interface AccountView {
  userId: number;
  name: string;
  balance: Balance;
  holds: Hold[];
  rate: RateState;
}

/**
 * Admission and charging of API users' requests (the HTTP plugin; the app's own reads are not
 * metered, docs/decisions.md). The order is the spec's: the rate limit first (429, costs nothing,
 * does not count), then the balance (402 before any work), then the work, then charge():
 * max(1, items) credits. A request that fails is never charged.
 */
export class Metering {
  readonly limiter: RateLimiter;
  private readonly reservations = new Reservations();
  private readonly groups: GroupCommit;
  /** Request charge ids: `req:<process prefix>:<counter>`, unique without a random draw per request. */
  private readonly idPrefix: string;
  private nextCharge = 0;

  /** Null without a data dir (tests of the metering alone), or when the journal could not be opened. */
  private readonly floats: Floats | null;
  private readonly balances: CommittedBalances;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    ids: IdSource,
    /** With a data dir, charges are answered from a metering float while another connection holds the write lock (floats.ts). */
    dataDir?: string,
  ) {
    this.limiter = new RateLimiter(clock);
    // This process's name: its request charges' id prefix, and its floats' owner and journal file.
    const owner = `${clock.nowMs()}-${ids.randomHex(6)}`;
    this.floats = dataDir === undefined ? null : openFloats(db, dataDir, owner, clock);
    this.balances = new CommittedBalances(db);
    this.groups = new GroupCommit(db, this.floats, this.balances);
    this.idPrefix = `req:${owner.replace('-', ':')}`;
  }

  private user(userId: number): { name: string; limit: number } {
    const row = prep(this.db, 'SELECT name, per_minute_limit AS "limit" FROM api_users WHERE id = ?').get(userId) as
      | { name: string; limit: number }
      | undefined;
    if (!row) throw fail.unauthorized(`Unknown API user ${userId}.`);
    return row;
  }

  /**
   * Step 1: the rate limit. The user's limit is read on every request (by the caller when it
   * passes `limit`: the HTTP plugin reads it with the key), so `skein users set-limit` applies at
   * once, even while the app runs. Throws rate_limited with Retry-After, retry-after-ms and
   * RateLimit headers; a refused request is not counted.
   */
  admitRate(userId: number, limit: number = this.user(userId).limit): RateState {
    const r = this.limiter.tryAcquire(userId, limit);
    if (!r.admitted) {
      const seconds = retryAfterSeconds(r.retryAfterMs);
      throw fail.rateLimited(
        `Rate limit exceeded: at most ${limit} requests per minute. Retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        { ...retryHeaders(r.retryAfterMs), ...rateLimitHeaders(r) },
      );
    }
    return r;
  }

  /**
   * Step 2: the balance. Throws payment_required when the available balance, less what running
   * requests were promised, is below maxCost. maxCost 0 (a free endpoint) always passes.
   * `known`: the balance read with the API key (authenticate), used when no ledger write
   * of this process came since; after one of its group commits, the balance that commit left
   * (committed-balances.ts); else the account is read. A spend by another process meanwhile is
   * caught where it is caught anyway: the ledger refuses the charge (payment_required), it never overdraws.
   */
  reserve(userId: number, maxCost: number = DEFAULT_MAX_COST, known?: { available: number; atLedgerWrite: number }): Reservation {
    if (maxCost > 0) {
      const available =
        known?.atLedgerWrite === ledgerWrites(this.db) ? known.available : (this.balances.availableOf(userId) ?? availableFor(this.db, userId));
      const free = available + (this.floats?.shareOf(userId).free ?? 0) - this.reservations.of(userId);
      if (free < maxCost) {
        throw fail.paymentRequired(notEnoughCredits('request', maxCost, free, true));
      }
    }
    return this.reservations.take(userId, maxCost);
  }

  /** Both steps in one call, for callers without a request pipeline (the tests and the simulation). */
  admit(userId: number, maxCost: number = DEFAULT_MAX_COST): Admission {
    const rate = this.admitRate(userId);
    return { userId, rate, reservation: this.reserve(userId, maxCost) };
  }

  /**
   * Posts the price of a successful request (max(1, items)) and releases its reservation.
   * Synchronous: a route may call it inside its own transaction. Throws payment_required only if
   * another process spent the credits meanwhile (the ledger never overdraws).
   */
  charge(admission: Pick<Admission, 'userId' | 'reservation'>, items: number, requestRef: string, idempotencyKey?: string): TransferResult {
    try {
      const input = this.chargeInput(admission.userId, items, requestRef);
      if (idempotencyKey !== undefined) {
        // A client-chosen key makes a repeated request one charge, per user, so two users' keys
        // never meet. The repeat is charged nothing even when its answer holds another number of
        // items (posts arrived in between): the key names the request, and the first answer's
        // price stands. The same key for another path is the client's mistake: 409.
        input.transferId = `idem:${admission.userId}:${idempotencyKey}`;
        const first = findTransfer(this.db, input.transferId);
        if (first) {
          if (first.memo !== input.memo) {
            throw fail.conflict(`The Idempotency-Key '${idempotencyKey}' was first used for ${first.memo}; use a new key for another request.`);
          }
          return { transfer: first, created: false };
        }
      }
      return charge(this.db, input);
    } finally {
      admission.reservation.release();
    }
  }

  /**
   * charge() once the write lock is free, waiting for it off the event loop (store/when-write-free.ts):
   * a request with an Idempotency-Key is charged on its own, and a downstream Skein's job sends one
   * with every page it asks for, so during `skein import` each of them held the server's thread
   * for the import's transaction (~270 ms). `stillWanted` runs before each try and throws when the
   * request is no longer to be charged (its client hung up meanwhile). The reservation holds until
   * the charge is done, as in a group.
   */
  async chargeWhenFree(
    admission: Pick<Admission, 'userId' | 'reservation'>,
    items: number,
    requestRef: string,
    idempotencyKey: string,
    stillWanted: () => void,
  ): Promise<TransferResult> {
    // charge() releases the reservation it is given: each try gets one that releases nothing.
    const held = { userId: admission.userId, reservation: { amount: admission.reservation.amount, release: () => {} } };
    try {
      return await whenWriteFree(this.db, () => {
        stillWanted();
        return this.charge(held, items, requestRef, idempotencyKey);
      });
    } finally {
      admission.reservation.release();
    }
  }

  /**
   * charge() committed together with the other charges of its group (GroupCommit: one
   * transfer per user for the group's sum, each request checked alone). Await it before answering.
   * The reservation holds until the group commits, so requests admitted meanwhile still see these
   * credits as promised. `answerable`: see GroupCommit.charge (false at the commit: not charged).
   */
  chargeGrouped(
    admission: Pick<Admission, 'userId' | 'reservation'>,
    items: number,
    requestRef: string,
    answerable?: () => boolean,
  ): Promise<void> {
    // The release rides on the queue entry rather than an async wrapper's finally: one promise per
    // request instead of three (bench/api).
    return this.groups.charge(this.chargeInput(admission.userId, items, requestRef), () => admission.reservation.release(), answerable);
  }

  /** Commits the queued grouped charges now, and posts and closes the floats (before the database closes). */
  flush(): void {
    this.groups.stop();
    this.groups.flush({ wait: false });
    this.floats?.shutdown();
  }

  private chargeInput(userId: number, items: number, requestRef: string) {
    return {
      // Zero-padded so that a process's ids sort in the order they are made: each INSERT appends to
      // the end of the id index instead of landing between earlier ids (fewer pages per commit).
      transferId: `${this.idPrefix}:${String(this.nextCharge++).padStart(12, '0')}`,
      userId,
      amount: priceOf(items),
      nowMs: this.clock.nowMs(),
      memo: requestRef.slice(0, MAX_MEMO_CHARS),
    };
  }

  /** The extension endpoint's view: balance, open holds, limit and what is left of the window. */
  account(userId: number): AccountView {
    const { name, limit } = this.user(userId);
    return { userId, name, balance: balanceOf(this.db, userId), holds: openHolds(this.db, userId), rate: this.limiter.peek(userId, limit) };
  }
}
