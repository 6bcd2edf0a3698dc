import type { Engine } from '../engine';
import { parseJsonExact } from '../corpus/write/json';
import { attemptGet } from './attempt';
import { getUpstreamConfig, recordKeyStatus, type UpstreamConfig } from './config';
import { UpstreamError } from './errors';
import { isWellFormedKey, redactKey, type KeySource } from './key-source';
import { realSleep, UpstreamLimiter, type Sleep } from './limiter';
import { spentOfBudget } from './spend';
import { whenWriteFree } from '../store/when-write-free';
import { upstreamPaths, type UpstreamPaths } from './paths';

// The upstream HTTP client: every outgoing request passes the shared limiter, then the retry
// policy below (docs/decisions.md "Upstream: retries and limits").

/** 5xx, connection errors and timeouts: tries in all, then 'unavailable'. */
export const MAX_ATTEMPTS = 3;
/** Backoff before retry n (1-based): BACKOFF_BASE_MS * 2^(n-1), so 1 s then 2 s. */
export const BACKOFF_BASE_MS = 1_000;
/** 429 answers waited out per request before giving up as 'unavailable'. */
export const MAX_RATE_LIMITED_WAITS = 10;
/** A 429 without retry-after-ms or Retry-After waits one full window. */
export const DEFAULT_RATE_LIMITED_WAIT_MS = 60_000;
/** A longer wait than this (a broken header) is cut to it. */
export const MAX_RATE_LIMITED_WAIT_MS = 15 * 60_000;
/**
 * The most a read (the API's, the app's, `skein upstream test`) waits in all for rate limits (Skein's
 * own limit for the upstream and the upstream's 429s) before it answers 429 with the rest of the
 * wait as Retry-After and retry-after-ms. Why: SocialData's official SDK (Stainless) gives up on an
 * answer after 60 s and then sends the request again, while it sleeps a 429's retry-after-ms of
 * under 60 s and retries by itself. A read that waited out a per-minute window took 56.8 s here.
 * Jobs wait out every window (unbounded): they run unattended and resume where they were.
 */
export const READ_MAX_RATE_WAIT_MS = 10_000;
/** The whole request, headers and body. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** The largest answer read; a page of 20 tweets is well under 1 MiB. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_MESSAGE = 300;

export interface UpstreamClientOptions {
  keySource: KeySource;
  /** Waits (the limiter, backoff, 429); tests pass one that advances a ManualClock. */
  sleep?: Sleep;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** The most one request waits for rate limits in all (READ_MAX_RATE_WAIT_MS by default; a job's walk: Infinity). */
  maxRateWaitMs?: number;
}

export interface UpstreamBalance {
  /** What the upstream said, in its unit: USD on socialdata, credits (items) on spec. */
  amount: number;
  unit: 'usd' | 'credits';
}

export interface UpstreamAnswer {
  body: unknown;
  /** The limiter admission that sent it: settle it (limiter.settle) once its spend is booked. */
  admission: number;
}

export interface UpstreamClient {
  readonly config: UpstreamConfig;
  readonly paths: UpstreamPaths;
  readonly limiter: UpstreamLimiter;
  /** GETs a path (from `paths`) and returns the parsed JSON of a 2xx answer, or throws UpstreamError. */
  get(path: string): Promise<unknown>;
  /**
   * get() for a read that is billed: `maxItems` (the most it can return) is held against the budget
   * from admission until the caller books the answer and settles it; 'budget_spent' when it does
   * not fit, before anything is sent.
   */
  request(path: string, maxItems: number, idempotencyKey?: string): Promise<UpstreamAnswer>;
  balance(): Promise<UpstreamBalance>;
}

/** A client for the configured upstream, or UpstreamError 'not_configured'. */
export function upstreamClient(engine: Pick<Engine, 'db' | 'clock'>, options: UpstreamClientOptions): UpstreamClient {
  const config = getUpstreamConfig(engine.db);
  if (!config) throw new UpstreamError('not_configured', "No upstream is set: run 'skein upstream set --url URL --profile socialdata|spec'.");
  const sleep = options.sleep ?? realSleep;
  const current = () => getUpstreamConfig(engine.db) ?? config;
  const limiter = new UpstreamLimiter(engine.db, engine.clock, () => current().perMinute);
  const attemptOptions = { timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS, maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES };
  const maxRateWaitMs = options.maxRateWaitMs ?? READ_MAX_RATE_WAIT_MS;
  const paths = upstreamPaths(config.profile);

  // The key's status is what Settings > Sources shows. It is written once the write lock is free
  // (another process's import holds it ~270 ms at a time), off the event loop; a status that cannot
  // be written at all (the lock held past the busy timeout, a full disk) does not fail the read
  // that taught it: the next use of the key tells again.
  const markKey = async (status: 'valid' | 'invalid', message: string | null) => {
    if (status === 'valid' && getUpstreamConfig(engine.db)?.keyStatus === 'valid') return; // no write per request
    await whenWriteFree(engine.db, () => recordKeyStatus(engine.db, status, message, engine.clock.nowMs())).catch(() => undefined);
  };

  const reservation = (items: number) => ({
    items,
    budgetLeft: () => {
      const c = current();
      return c.budgetItems === null ? null : c.budgetItems - spentOfBudget(engine.db, c);
    },
    refuse: (left: number) =>
      new UpstreamError('budget_spent', `The upstream budget allows ${left} more items and this request may bring back ${items}: nothing was sent. Raise it with 'skein upstream set --budget ITEMS' or in Settings > Sources.`),
  });

  async function get(path: string, keyCheck = false, maxItems = 0, idempotencyKey?: string): Promise<UpstreamAnswer> {
    // Sent with every try of this request: an upstream that honours it (another Skein) charges a
    // repeated request once; the real service ignores an unknown header.
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
    const key = await options.keySource.get();
    if (!key) throw new UpstreamError('not_configured', `No upstream API key: give it to 'skein upstream set' or in ${options.keySource.describe}.`);
    if (!isWellFormedKey(key)) throw new UpstreamError('not_configured', 'The upstream API key is malformed (spaces or control characters, or too long); set it again.');
    const url = config!.url + path;
    let failures = 0;
    let rateLimited = 0;
    // Rate-limit waits (Skein's limiter, the upstream's 429s) count against the request's bound.
    let rateWaitedMs = 0;
    const rateWait = (why: (ms: number) => string) => async (ms: number) => {
      if (rateWaitedMs + ms > maxRateWaitMs) throw new UpstreamError('rate_limited', why(ms), 429, ms);
      rateWaitedMs += ms;
      await sleep(ms);
    };
    const ownLimit = rateWait((ms) => `Skein's limit for the upstream (${current().perMinute} requests a minute, 'skein upstream set --per-minute') is used up for the next ${seconds(ms)}.`);
    for (;;) {
      const admission = await limiter.acquire(ownLimit, reservation(maxItems));
      const r = await attemptGet(url, key, attemptOptions, headers);
      // Only a 2xx is billed: any other answer gives its reservation back at once.
      if (r.kind === 'failed' || r.status < 200 || r.status >= 300) await limiter.settle(admission);
      if (r.kind === 'failed') {
        if (!r.retryable) throw new UpstreamError('bad_response', `The upstream at ${config!.url}: ${r.reason}.`);
        if (++failures >= MAX_ATTEMPTS) throw new UpstreamError('unavailable', `The upstream at ${config!.url} is unavailable: ${r.reason} (${MAX_ATTEMPTS} tries).`);
        await sleep(BACKOFF_BASE_MS * 2 ** (failures - 1));
        continue;
      }
      const message = () => redactKey(messageOf(r.text), key);
      if (r.status >= 200 && r.status < 300) {
        let body: unknown;
        try {
          // Ids of 16+ digits as strings (the detail shapes' numeric ids): JSON.parse would round them.
          body = parseJsonExact(r.text);
        } catch {
          await limiter.settle(admission);
          throw new UpstreamError('bad_response', `The upstream at ${config!.url} answered ${r.status} with something that is not JSON; is the profile right?`, r.status);
        }
        await markKey('valid', null);
        return { body, admission };
      }
      if (r.status === 429) {
        if (++rateLimited > MAX_RATE_LIMITED_WAITS) throw new UpstreamError('unavailable', `The upstream at ${config!.url} is still rate limiting after ${MAX_RATE_LIMITED_WAITS} waits.`, 429);
        await rateWait((ms) => `The upstream at ${config!.url} is rate limiting (HTTP 429) for the next ${seconds(ms)}: ${message()}`)(rateLimitedWaitMs(r.headers));
        continue;
      }
      if (r.status >= 500) {
        if (++failures >= MAX_ATTEMPTS) throw new UpstreamError('unavailable', `The upstream at ${config!.url} is unavailable: HTTP ${r.status} ${message()} (${MAX_ATTEMPTS} tries).`, r.status);
        await sleep(BACKOFF_BASE_MS * 2 ** (failures - 1));
        continue;
      }
      if (r.status === 401 || (r.status === 403 && keyCheck)) {
        const why = `The upstream refused the API key (HTTP ${r.status}): ${message()}`;
        await markKey('invalid', why);
        throw new UpstreamError('key_invalid', why, r.status);
      }
      if (r.status === 402) throw new UpstreamError('out_of_balance', `The upstream account is out of balance (HTTP 402): ${message()}`, 402);
      if (r.status >= 300 && r.status < 400) throw new UpstreamError('bad_response', `The upstream at ${config!.url} redirected (HTTP ${r.status}); redirects are not followed, so the key goes nowhere else. Set the URL it points to.`, r.status);
      throw new UpstreamError('rejected', `The upstream refused ${path.split('?')[0]} (HTTP ${r.status}): ${message()}`, r.status);
    }
  }

  return {
    config,
    paths,
    limiter,
    get: async (path) => (await get(path)).body,
    request: (path, maxItems, idempotencyKey) => get(path, false, maxItems, idempotencyKey),
    async balance() {
      const body = (await get(paths.balance(), true)).body as { balance?: unknown; credits?: { available?: unknown } };
      const amount = config.profile === 'socialdata' ? body?.balance : body?.credits?.available;
      if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new UpstreamError('bad_response', `The upstream's ${paths.balance()} answer has no balance; is the profile '${config.profile}' right?`);
      return { amount, unit: config.profile === 'socialdata' ? 'usd' : 'credits' };
    },
  };
}

const seconds = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))} s`;

/** 429's wait: retry-after-ms (exact), else Retry-After in seconds, else a full window; bounded. */
export function rateLimitedWaitMs(headers: Headers): number {
  const ms = Number(headers.get('retry-after-ms'));
  const s = Number(headers.get('retry-after'));
  const wait = headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0 ? ms : headers.get('retry-after') !== null && Number.isFinite(s) && s >= 0 ? s * 1000 : DEFAULT_RATE_LIMITED_WAIT_MS;
  return Math.min(Math.max(wait, 1), MAX_RATE_LIMITED_WAIT_MS);
}

/** The upstream's own words: the spec's {"status":"error","message":...}, else the start of the text. */
function messageOf(text: string): string {
  try {
    const m = (JSON.parse(text) as { message?: unknown })?.message;
    if (typeof m === 'string') return m.slice(0, MAX_MESSAGE);
  } catch {
    // not JSON: the text itself
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_MESSAGE) || '(no message)';
}
