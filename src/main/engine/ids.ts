import { createHash, randomBytes } from 'node:crypto';

// Randomness comes in through an id source, so tests and simulations can replay exactly.
export interface IdSource {
  /** `bytes` random bytes as lowercase hex (keys, capability tokens, cursor secrets). */
  randomHex(bytes: number): string;
}

export const cryptoIds: IdSource = { randomHex: (bytes) => randomBytes(bytes).toString('hex') };

/** Deterministic ids from a seed: a SHA-256 counter stream. */
export class SeededIds implements IdSource {
  private counter = 0;
  constructor(private readonly seed: string) {}
  randomHex(bytes: number): string {
    let out = '';
    while (out.length < bytes * 2) {
      out += createHash('sha256').update(`${this.seed}:${this.counter++}`).digest('hex');
    }
    return out.slice(0, bytes * 2);
  }
}
