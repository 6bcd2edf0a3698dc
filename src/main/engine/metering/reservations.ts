/**
 * Credits promised to requests that passed the balance check and are still running, per user.
 * Without them, two concurrent timeline requests could both see 20 available and both spend 20.
 * The ledger itself never overdraws (it refuses the second charge); this makes the refusal come
 * as a 402 before any work, as section 7 asks. In memory: requests live in this process.
 */
export class Reservations {
  private readonly byUser = new Map<number, number>();

  of(userId: number): number {
    return this.byUser.get(userId) ?? 0;
  }

  take(userId: number, amount: number): Reservation {
    this.byUser.set(userId, this.of(userId) + amount);
    return new Taken(this, userId, amount);
  }

  /** Called once per reservation, by Taken.release. */
  giveBack(userId: number, amount: number): void {
    const left = this.of(userId) - amount;
    if (left > 0) this.byUser.set(userId, left);
    else this.byUser.delete(userId);
  }
}

// A class rather than a closure per request: one small object, no function allocated per call.
class Taken implements Reservation {
  private released = false;

  constructor(
    private readonly owner: Reservations,
    private readonly userId: number,
    readonly amount: number,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.owner.giveBack(this.userId, this.amount);
  }
}

export interface Reservation {
  readonly amount: number;
  /** Idempotent: the charge and the end of the response may both call it. */
  release(): void;
}
