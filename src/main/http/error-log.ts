import type { FastifyRequest } from 'fastify';

// Every 5xx leaves one line on stderr, so a failure a user reports can be found: before, with
// Fastify's logger off, a 500 (a corrupted database page under /social/search) left no trace.
// The line names the route's pattern, never the URL: a URL can carry a capability token
// (/datafiles/<token>/...) or a query, and no header is logged, so no key either.

const MAX_STACK_LINES = 8;
const MAX_MESSAGE_CHARS = 1_000;

export interface ServerErrorLine {
  time: string;
  request_id: string;
  method: string;
  route: string;
  user_id: number | null;
  error: string;
  stack: string[];
}

export function serverErrorLine(request: FastifyRequest, err: unknown, nowMs: number): ServerErrorLine {
  const e = err instanceof Error ? err : new Error(String(err));
  return {
    time: new Date(nowMs).toISOString(),
    request_id: request.id,
    method: request.method,
    route: request.routeOptions.url ?? '(no route)',
    user_id: request.apiUser?.id ?? null,
    error: `${e.name}: ${e.message}`.slice(0, MAX_MESSAGE_CHARS),
    stack: (e.stack ?? '').split('\n').slice(1, 1 + MAX_STACK_LINES).map((l) => l.trim()),
  };
}

/** Writes the line as JSON on stderr (where `skein serve` and the desktop app's log go). */
export function logServerError(request: FastifyRequest, err: unknown, nowMs: number, write: (line: string) => void = (s) => process.stderr.write(s)): void {
  write(`${JSON.stringify({ level: 'error', msg: 'request failed', ...serverErrorLine(request, err, nowMs) })}\n`);
}
