// The one error catalogue. The engine throws SkeinError with a code; the HTTP layer maps the code
// to the spec's status (section 7) and body, the IPC layer passes {code, message} to the renderer,
// the CLI prints the message. A client's mistake always has a code below; `internal` is for real
// faults only and its message never carries a stack trace.
export type ErrorCode =
  | 'unauthorized' // 401: missing, malformed or unknown key (the spec leaves the status open)
  | 'payment_required' // 402: not enough credits
  | 'forbidden' // 403: a protected user's timeline, another user's job, a foreign Host
  | 'not_found' // 404: user, tweet, space, article, job or path
  | 'conflict' // 409: an idempotency id reused with other content
  | 'gone' // 410: a data file that was deleted (by the analyst or the retention setting)
  | 'invalid' // 422: a missing or malformed parameter
  | 'rate_limited' // 429: over the per-user limit (the spec leaves the status open)
  | 'upstream' // 500: the upstream could not give the data (spec 7: "could not be obtained, retry later")
  | 'internal'; // 500

export const statusOf: Record<ErrorCode, number> = {
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  invalid: 422,
  rate_limited: 429,
  upstream: 500,
  internal: 500,
};

export class SkeinError extends Error {
  override name = 'SkeinError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Response headers that belong to this failure (Retry-After, RateLimit). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const fail = {
  unauthorized: (why: string) => new SkeinError('unauthorized', why),
  paymentRequired: (why: string) => new SkeinError('payment_required', why),
  forbidden: (why: string) => new SkeinError('forbidden', why),
  notFound: (what: string) => new SkeinError('not_found', what),
  conflict: (why: string) => new SkeinError('conflict', why),
  gone: (why: string) => new SkeinError('gone', why),
  /** Names the parameter, as section 7's 422 asks. */
  invalid: (parameter: string, why: string) => new SkeinError('invalid', `Invalid parameter '${parameter}': ${why}`),
  missing: (parameter: string) => new SkeinError('invalid', `Missing required parameter '${parameter}'.`),
  rateLimited: (message: string, headers: Record<string, string>) => new SkeinError('rate_limited', message, headers),
  internal: (requestId?: string) =>
    new SkeinError('internal', `Internal error${requestId ? ` (request ${requestId}, in Skein's log)` : ''}: the request could not be completed. Please retry later.`),
} as const;
