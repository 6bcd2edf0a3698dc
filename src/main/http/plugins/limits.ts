import type { FastifyInstance } from 'fastify';
import { errorBody } from '../errors';

// Limits on what a client can send (a spec request is a short GET): the longest real URL is a
// timeline path with a 46-character cursor, about 120 characters; 4096 leaves room for search
// queries of jobs. Headers: 16 KiB (Node's own default, stated here so it cannot drift).
export const MAX_URL_CHARS = 4096;
export const MAX_HEADER_BYTES = 16 * 1024;
/** app.ts's maxParamLength: the longest id is 19 digits, a space id 64 characters. */
export const MAX_PARAM_CHARS = 256;

export function registerUrlLimit(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.length <= MAX_URL_CHARS) return done();
    // 414 rather than the error catalogue's 422: the parameters were never looked at. The reply is
    // sent here, so the request goes no further (done is not called).
    void reply
      .code(414)
      .type('application/json; charset=utf-8')
      .send(errorBody(`URL too long: ${request.url.length} characters, the limit is ${MAX_URL_CHARS}.`));
  });
}
