// The upstream's failures as the callers (CLI, later reads and jobs) need to tell them apart.
// Messages never carry the API key (the client redacts what the upstream echoes).

export type UpstreamErrorKind =
  | 'not_configured' // no upstream set, or no key given
  | 'unavailable' // 5xx, connection refused, timeout, or still rate limited after the bounded waits
  | 'rate_limited' // a read would wait longer than READ_MAX_RATE_WAIT_MS for a rate limit: retryAfterMs says how long
  | 'key_invalid' // 401 (or 403 on the balance check): the config's key status is now 'invalid'
  | 'out_of_balance' // 402: the upstream's own message
  | 'budget_spent' // our own budget would be passed: nothing was sent
  | 'rejected' // another 4xx: this request is wrong, repeating it will not help
  | 'bad_response'; // not JSON, too large, a redirect: the upstream is not what the profile says

export class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    /** The upstream's HTTP status, when it answered. */
    readonly status?: number,
    /** 'rate_limited': how long until the request may be sent. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
