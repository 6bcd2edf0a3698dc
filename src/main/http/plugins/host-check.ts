import type { FastifyInstance } from 'fastify';
import { SkeinError } from '../errors';

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

/**
 * DNS rebinding defence: a web page on evil.example can resolve its own name to 127.0.0.1 and
 * then talk to us with Host: evil.example. Only loopback names (and names the user explicitly
 * allowed with --host) are served.
 */
export function registerHostCheck(app: FastifyInstance, extraHosts: ReadonlySet<string>): void {
  app.addHook('onRequest', async (request) => {
    if (!isLoopbackHost(request.headers.host, extraHosts)) {
      throw new SkeinError('forbidden', 'Forbidden host: Skein answers only requests addressed to a loopback name such as 127.0.0.1 or localhost.');
    }
  });
}
