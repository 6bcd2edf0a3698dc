import type { Engine } from '../engine';
import { meteringOf } from '../metering';

/** The desktop app's own API user (migration 010): its reads are metered like any script's. */
export const APP_USER_ID = 1;

/**
 * A data read on behalf of the app: rate limit and balance first (429 / 402 before any work),
 * then the read, then max(1, items) credits. A read that fails costs nothing.
 */
export function metered<T>(engine: Engine, maxCost: number, ref: string, read: () => { value: T; items: number }): T {
  const metering = meteringOf(engine);
  const admission = metering.admit(APP_USER_ID, maxCost);
  let result: { value: T; items: number };
  try {
    result = read();
  } catch (err) {
    admission.reservation.release();
    throw err;
  }
  metering.charge(admission, result.items, `app ${ref}`);
  return result.value;
}
