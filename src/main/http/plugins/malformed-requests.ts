import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { errorBody } from '../errors';
import { MAX_HEADER_BYTES, MAX_PARAM_CHARS } from './limits';

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
