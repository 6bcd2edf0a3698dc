import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppSession } from '../app-session';
import { sendLoginPage } from '../login-page';
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
 * Headless mode: the built renderer is served at / from the same port as the API, only to a
 * browser that is logged in (http/app-session.ts): `GET /?token=<login token>` sets the session
 * cookie and sends the browser on to `/`, so the address bar no longer shows the token; `GET /`
 * without the cookie shows how to get in (http/login-page.ts). The page itself holds no secret.
 */
export async function registerRenderer(app: FastifyInstance, rendererDir: string, session: AppSession): Promise<void> {
  const indexFile = join(rendererDir, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The app page is not built (no ${indexFile}): run \`npm run build\`.`);
  }
  const page = readFileSync(indexFile, 'utf8');
  app.get('/', (request: FastifyRequest, reply: FastifyReply) => {
    const { token } = request.query as { token?: unknown };
    if (token !== undefined) {
      if (typeof token !== 'string' || !session.isLoginToken(token)) return sendLoginPage(request, reply, 'wrong-token');
      // 303: the browser GETs / next, and the address bar shows / (the token is in no later
      // request, Referer or screenshot).
      return reply
        .code(303)
        .header('set-cookie', session.cookie(request))
        .header('location', '/')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send();
    }
    if (!session.isLoggedIn(request)) return sendLoginPage(request, reply, 'not-logged-in');
    return reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(page);
  });
  await app.register(fastifyStatic, {
    root: rendererDir,
    prefix: '/',
    index: false,
    // The page is served only to a logged-in browser, by the route above (its scripts and styles
    // hold nothing secret and are served to anyone, as the login page's icon is).
    allowedPath: (pathName) => pathName !== '/index.html',
    setHeaders: (res) => res.setHeader('x-content-type-options', 'nosniff'),
  });
}
