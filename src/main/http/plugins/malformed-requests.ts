import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { errorBody } from '../errors';
import { MAX_HEADER_BYTES } from './limits';

/**
 * Requests Node's HTTP parser refuses never reach Fastify's handlers (bad request line, header
 * overflow, timeouts); Fastify's default answer is its own JSON shape. This answers in the spec's
 * error body instead, then closes the connection, as Node does.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let reason = 'Bad Request';
  let message = 'Malformed HTTP request.';
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    reason = 'Request Header Fields Too Large';
    message = `Request headers too large: the limit is ${MAX_HEADER_BYTES} bytes.`;
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    reason = 'Request Timeout';
    message = 'The request took too long to arrive.';
  }
  const body = errorBody(message);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Fastify's framework errors (a path with broken percent-encoding such as /%zz, which the router
 * cannot decode): a client's mistake in the path, answered as the spec's 422 naming it.
 */
export function frameworkErrors(_err: Error, _request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .code(422)
    .type('application/json; charset=utf-8')
    .send(errorBody("Invalid parameter 'path': the URL path is not valid percent-encoding."));
}
