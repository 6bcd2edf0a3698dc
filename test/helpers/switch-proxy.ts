import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

// A real HTTP proxy on loopback in front of an upstream Skein, to make it fail on command: pass
// requests through, answer 500 or 429, or never answer. Counts what it passed.

export type ProxyMode = 'pass' | '500' | '429' | 'hang';

const open: Server[] = [];
afterEach(async () => {
  while (open.length) {
    const s = open.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

export async function switchProxy(target: string) {
  let mode: ProxyMode = 'pass';
  let passed = 0;
  let refused = 0;
  const server = createServer((req, res) => {
    if (mode === 'hang') return;
    if (mode !== 'pass') {
      refused++;
      const status = Number(mode);
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after-ms': '200', 'retry-after': '1' } : {}) });
      res.end(JSON.stringify({ status: 'error', message: status === 429 ? 'Too many requests.' : 'The platform is having a bad day.' }));
      return;
    }
    passed++;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
    fetch(target + req.url, { headers }).then(
      async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(next: ProxyMode) {
      mode = next;
    },
    passed: () => passed,
    refused: () => refused,
  };
}
