// Ids shaped like the platform's snowflakes: milliseconds since its epoch in the high bits, so ids
// increase with time and "newest first" is "id descending". Every id made after 2010-11-04 with
// this layout is above 2^53 (a post of 2026 is about 2.0e18), which is the point of the demo.
export const SNOWFLAKE_EPOCH_MS = 1288834974657;

export class Snowflakes {
  private lastMs = 0;
  private seq = 0;
  constructor(private readonly worker: number) {}

  /** A unique id for a record made at `ms`; calls must come in non-decreasing time order per worker. */
  at(ms: number): bigint {
    if (ms === this.lastMs) this.seq++;
    else {
      this.lastMs = ms;
      this.seq = 0;
    }
    return (BigInt(ms - SNOWFLAKE_EPOCH_MS) << 22n) | (BigInt(this.worker & 0x3ff) << 12n) | BigInt(this.seq & 0xfff);
  }
}

export function snowflakeMs(id: bigint): number {
  return Number(id >> 22n) + SNOWFLAKE_EPOCH_MS;
}
