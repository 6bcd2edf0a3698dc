import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

// What `GET /` shows a browser that is not logged in (routes in plugins/renderer.ts): how to get
// in, and nothing secret. One self-contained page: its only style is the block below, allowed by
// its hash, so the policy needs no 'unsafe-inline'.

const DEFAULT_PORT = 7878;
const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1d2330;background:#fff}',
  'code,pre{font-family:ui-monospace,monospace;background:#eef1f6;border-radius:4px}',
  'code{padding:0 .25em}pre{padding:.6em .8em;overflow-x:auto}',
  '.warn{border-left:4px solid #c0392b;padding:.4em .8em;background:#fbeceb}',
  '@media (prefers-color-scheme:dark){body{color:#e6e9ef;background:#161a22}code,pre{background:#262c38}.warn{background:#3a1f1d}}',
].join('');
const POLICY =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export type LoginRefusal = 'not-logged-in' | 'wrong-token';

export function sendLoginPage(request: FastifyRequest, reply: FastifyReply, refusal: LoginRefusal) {
  // The port the server listens on (not the Host header's), for `skein app-url`.
  const port = request.socket.localPort;
  const portOption = typeof port === 'number' && port !== DEFAULT_PORT ? ` --port ${port}` : '';
  const warning = refusal === 'wrong-token'
    ? '<p class="warn">The token in that address is not this Skein\'s: it was mistyped, cut short, or belongs to another data dir.</p>'
    : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skein: log in with the address skein serve printed</title>
<link rel="icon" href="/favicon.ico">
<style>${STYLE}</style>
</head>
<body>
<h1>Open Skein with its login address</h1>
${warning}<p>This is Skein's app, served by <code>skein serve</code>. To use it, open the address
<code>skein serve</code> (or <code>npm start</code>) printed in its terminal when it started. It ends
in <code>?token=</code>&hellip;:</p>
<pre>Skein is running at http://127.0.0.1:${typeof port === 'number' ? port : DEFAULT_PORT}/?token=&hellip;</pre>
<p>That address logs this browser in and takes you to the app. The browser stays logged in when Skein
restarts on the same data dir.</p>
<p>Lost the terminal? Print the address again with</p>
<pre>npx skein app-url${portOption}</pre>
<p>(add <code>--data-dir DIR</code> if Skein was started with one), or stop <code>skein serve</code> and
run it again. Only your own OS account can do either: the token is kept in Skein's private data dir.</p>
<p>Opened that address already? <a href="/">Open Skein</a>.</p>
</body>
</html>
`;
  return reply
    .code(403)
    .header('content-security-policy', POLICY)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}
