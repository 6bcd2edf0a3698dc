import type { FastifyInstance } from 'fastify';
import { errorBody, SkeinError } from '../errors';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host part of a Host header: "[::1]:7878" -> "[::1]", "localhost:7878" -> "localhost". */
export function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  const colon = hostHeader.lastIndexOf(':');
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

export function isLoopbackHost(hostHeader: string | undefined, extraHosts: ReadonlySet<string>): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  return LOOPBACK_NAMES.has(name) || /^127(\.\d{1,3}){3}$/.test(name) || extraHosts.has(name);
}

const MISSING_HOST = 'Missing Host header: Skein answers only requests addressed to a loopback name such as 127.0.0.1 or localhost.';

const TWO_HOSTS = 'More than one Host header: a request names one host (RFC 9112 3.2).';

function hostHeaders(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') n++;
  return n;
}

/** The host[:port] of an absolute-form target; undefined when it is not one (refused as foreign). */
function authorityOf(target: string): string | undefined {
  const m = /^https?:\/\/([^/?#]*)/i.exec(target);
  return m?.[1] || undefined;
}

/**
 * DNS rebinding defence: a web page on evil.example can resolve its own name to 127.0.0.1 and
 * then talk to us with Host: evil.example. Only loopback names (and names the user explicitly
 * allowed with --host) are served.
 */
export function registerHostCheck(app: FastifyInstance, extraHosts: ReadonlySet<string>): void {
  // A callback hook, like every hook on the request path: no promise per request (bench/api).
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.host === undefined) {
      // Node would answer this itself with a bare 400 and no body (requireHostHeader); app.ts turns
      // that off so the refusal comes here, in the spec's body. 400, not the 403 of a foreign Host:
      // HTTP/1.1 requires the header (RFC 9112 3.2), and the fix is to send it. Sent here, so the
      // request goes no further (done is not called).
      void reply.code(400).type('application/json; charset=utf-8').send(errorBody(MISSING_HOST));
      return;
    }
    // Node keeps the first of two Host headers; RFC 9112 3.2 requires a 400 for more than one, and
    // a proxy or browser that sent both must not be served as whichever came first.
    if (hostHeaders(request.raw.rawHeaders) > 1) {
      void reply.code(400).type('application/json; charset=utf-8').send(errorBody(TWO_HOSTS));
      return;
    }
    // An absolute-form target (`GET http://evil.example/... HTTP/1.1`) names its own host, which
    // wins over the Host header (RFC 9112 3.2.2): it must be a loopback name as well.
    const target = request.raw.url ?? '/';
    if (!target.startsWith('/') && !isLoopbackHost(authorityOf(target), extraHosts)) {
      throw new SkeinError('forbidden', 'Forbidden host: the request names a host that is not a loopback name such as 127.0.0.1 or localhost.');
    }
    if (!isLoopbackHost(request.headers.host, extraHosts)) {
      throw new SkeinError('forbidden', 'Forbidden host: Skein answers only requests addressed to a loopback name such as 127.0.0.1 or localhost.');
    }
    const refusal = crossOriginRefusal(request.headers.host!, request.headers.origin, request.headers['sec-fetch-site']);
    if (refusal) throw new SkeinError('forbidden', refusal);
    done();
  });
}

/**
 * No CORS: Skein never sends Access-Control-Allow-Origin, so a foreign page cannot read answers;
 * it could still make a browser send a request (and spend credits, start jobs). Browsers mark
 * those: an Origin other than our own (`http://<Host>`), `Origin: null` (sandboxed frames, file://),
 * or `Sec-Fetch-Site: cross-site`. Scripts (curl, requests, R) send none of these and pass.
 * Returns why a request is refused, or undefined.
 */
export function crossOriginRefusal(host: string, origin: string | string[] | undefined, fetchSite: string | string[] | undefined): string | undefined {
  if (fetchSite !== undefined && (Array.isArray(fetchSite) || fetchSite.toLowerCase() === 'cross-site')) {
    return 'Forbidden: cross-site browser requests are refused (Sec-Fetch-Site: cross-site).';
  }
  if (origin === undefined) return undefined;
  const own = [`http://${host.toLowerCase()}`, `https://${host.toLowerCase()}`];
  if (Array.isArray(origin) || !own.includes(origin.toLowerCase())) {
    return `Forbidden origin: Skein answers browser requests only from its own page (http://${host}), not from ${Array.isArray(origin) ? 'several origins' : JSON.stringify(origin.slice(0, 100))}.`;
  }
  return undefined;
}
