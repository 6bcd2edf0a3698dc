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
