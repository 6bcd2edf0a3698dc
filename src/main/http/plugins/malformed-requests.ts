import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorBody } from '../errors';
import { MAX_HEADER_BYTES, MAX_PARAM_CHARS } from './limits';

/** One complete raw HTTP answer in the spec's error body; the connection closes after it. */
function rawErrorResponse(status: number, reason: string, message: string, extraHeaders = ''): string {
  const body = errorBody(message);
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${extraHeaders}Connection: close\r\n\r\n${body}`
  );
}

/** What a parser-level refusal answers, by Node's error code; anything else is a plain 400. */
function parserRefusal(code: string | undefined): [status: number, reason: string, message: string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      // Also an over-long request line: the parser counts it against the same limit.
      return [431, 'Request Header Fields Too Large', `Request headers too large: the limit is ${MAX_HEADER_BYTES} bytes.`];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'The request took too long to arrive.'];
    case 'HPE_INVALID_VERSION': // HTTP/1.2, HTTP/3.0
    case 'HPE_PAUSED_H2_UPGRADE': // "PRI * HTTP/2.0", HTTP/2 without TLS
      return [505, 'HTTP Version Not Supported', 'HTTP version not supported: Skein speaks HTTP/1.1 and HTTP/1.0.'];
    default:
      return [400, 'Bad Request', 'Malformed HTTP request.'];
  }
}

/**
 * Requests Node's HTTP parser refuses never reach Fastify's handlers (bad request line, header
 * overflow, timeouts); Fastify's default answer is its own JSON shape. This answers in the spec's
 * error body instead, then closes the connection, as Node does.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this connection (a pipelined request before the bad bytes)
  // must not get our bytes in its middle: Node's own handler checks the same before writing.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(rawErrorResponse(...parserRefusal(err.code)));
  socket.destroy();
}

/** The methods Skein's routes answer; PATCH and DELETE exist only to say a path is not served. */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT';

/**
 * CONNECT asks a proxy for a tunnel. Without a 'connect' listener Node drops the socket with no
 * answer at all; Skein is not a proxy, so it says so in the spec's body (405 with Allow) and closes.
 * `end` with a callback: the answer is flushed before the socket goes.
 */
export function refuseConnect(request: IncomingMessage, socket: Duplex): void {
  const target = (request.url ?? '').slice(0, 100);
  const answer = rawErrorResponse(
    405,
    'Method Not Allowed',
    `Method CONNECT not allowed: Skein is not a proxy and opens no tunnel (to ${JSON.stringify(target)}).`,
    `Allow: ${ALLOWED_METHODS}\r\n`,
  );
  if (!socket.writable) return void socket.destroy();
  socket.end(answer, () => socket.destroy());
}

/**
 * An Expect header other than 100-continue. Without a 'checkExpectation' listener Node answers
 * 417 itself with an empty body; the request is never handled, as HTTP asks (RFC 9110 10.1.1).
 */
export function refuseExpectation(request: IncomingMessage, response: ServerResponse): void {
  const expect = String(request.headers.expect ?? '').slice(0, 100);
  const body = errorBody(`Expectation failed: Skein meets only "Expect: 100-continue", not ${JSON.stringify(expect)}.`);
  response.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  response.end(body);
}

/**
 * Fastify's framework errors, raised before routing: a path with broken percent-encoding such as
 * /%zz (FST_ERR_BAD_URL: the spec's 422 naming the path) and a path parameter longer than
 * maxParamLength (FST_ERR_MAX_PARAM_LENGTH: 414, like an over-long URL).
 */
export function frameworkErrors(err: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply
    .code(tooLong ? 414 : 422)
    .type('application/json; charset=utf-8')
    .send(
      errorBody(
        tooLong
          ? `A path parameter is too long: the limit is ${MAX_PARAM_CHARS} characters.`
          : "Invalid parameter 'path': the URL path is not valid percent-encoding.",
      ),
    );
}
