import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

// Headless mode's login (issue 13, point 14), Jupyter's model: `skein serve` prints
// http://127.0.0.1:PORT/?token=<login token>; GET /?token= exchanges it for a cookie holding the
// session value, and every /app/* route takes only that cookie. The session value is derived
// from the login token (HMAC-SHA256), so it is the same after a restart on the same data dir (an
// open tab and a logged-in browser keep working) and changes only with the token file. It is not
// the token itself: the value a browser sends on every request cannot be pasted into a login URL,
// and the login token travels once, in the URL typed or clicked, never in a header.

const SESSION_LABEL = 'skein app session v1';
/** How long a browser keeps the cookie: 30 days, as Jupyter (Tornado's signed cookies). */
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

export interface AppSession {
  /** Checks a login token from a URL, in constant time. */
  isLoginToken(given: string): boolean;
  /** Whether the request carries this session's cookie. */
  isLoggedIn(request: FastifyRequest): boolean;
  /** The Set-Cookie value that logs the browser in. */
  cookie(request: FastifyRequest): string;
}

export function appSession(loginToken: string): AppSession {
  const session = createHmac('sha256', loginToken).update(SESSION_LABEL).digest('hex');
  return {
    isLoginToken: (given) => sameSecret(given, loginToken),
    isLoggedIn: (request) => cookiesNamed(request, cookieName(request)).some((value) => sameSecret(value, session)),
    // Path=/: the page, the calls and the event stream all need it. HttpOnly: no script reads it.
    // SameSite=Strict: no request another site starts carries it.
    cookie: (request) => `${cookieName(request)}=${session}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict`,
  };
}

/** Constant-time for equal lengths; a length differs only for what is not a token at all. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Cookies are kept per host, not per port, so the name carries the port: two Skeins on one machine
 * keep their own. (`skein-session-<port>` was the per-start token's cookie on Path=/app/events; a
 * browser still holding one would send it first there, so the login cookie has its own name.)
 */
function cookieName(request: FastifyRequest): string {
  const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1] ?? '80';
  return `skein-app-${port}`;
}

function cookiesNamed(request: FastifyRequest, name: string): string[] {
  const values: string[] = [];
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** The address that logs a browser in, as `skein serve` prints it: http://127.0.0.1:PORT/?token=... */
export function loginUrl(baseUrl: string, loginToken: string): string {
  return `${baseUrl}/?token=${loginToken}`;
}
