import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sessionCookie } from '../routes/app-rpc';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The page's own policy, also sent as a header: scripts and styles only from us (no inline
// script), data only from us; images may come from https only for the Settings choice "Load images
// from remote hosts" (off by default: then the page adds a stricter policy of its own, see
// src/renderer/src/stores/remote-images.ts); nothing may frame us. The favicon is a file of the
// built page (resources/, copied by the renderer build).
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Headless mode: the built renderer is served at / from the same port as the API. index.html gets
 * the per-session token of the app API (src/main/http/routes/app-rpc.ts) as a meta tag, so only a
 * page we served can call it.
 */
export async function registerRenderer(app: FastifyInstance, rendererDir: string, sessionToken?: string): Promise<void> {
  const indexFile = join(rendererDir, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The app page is not built (no ${indexFile}): run \`npm run build\`.`);
  }
  const template = readFileSync(indexFile, 'utf8');
  const page = sessionToken
    ? template.replace('<head>', `<head>\n    <meta name="skein-token" content="${sessionToken.replace(/[^0-9a-f]/g, '')}" />`)
    : template;
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    // The events stream's session cookie comes with the page (routes/app-rpc.ts).
    if (sessionToken) void reply.header('set-cookie', sessionCookie(request, sessionToken));
    return reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(page);
  };
  app.get('/', sendPage);
  await app.register(fastifyStatic, {
    root: rendererDir,
    prefix: '/',
    index: false,
    // The page is only ever served with its token, by the route above.
    allowedPath: (pathName) => pathName !== '/index.html',
    setHeaders: (res) => res.setHeader('x-content-type-options', 'nosniff'),
  });
}
