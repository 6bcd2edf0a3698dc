/**
 * One deadline over a whole outgoing HTTP exchange (connect, headers and body): `signal` goes to
 * fetch, and aborting it also errors a body still being read, so an answer that starts and then
 * trickles is cut at the same time. `timedOut()` tells the deadline from another abort.
 */
export interface Deadline {
  signal: AbortSignal;
  /** Stops the exchange now (a body read far enough). */
  abort(): void;
  timedOut(): boolean;
  /** Call when the exchange is over, whatever its end. */
  clear(): void;
}

export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, ms);
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    timedOut: () => expired,
    clear: () => clearTimeout(timer),
  };
}
