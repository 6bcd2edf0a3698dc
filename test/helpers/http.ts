import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import type { Engine } from '../../src/main/engine/engine';
import { buildHttpApp, type HttpAppOptions } from '../../src/main/http/app';

const running: FastifyInstance[] = [];
afterEach(async () => {
  while (running.length) {
    const app = running.pop()!;
    const closing = app.close();
    // A response a test did not read to its end (a data file it only checked the status of) keeps
    // its connection busy, and close() would wait for the client to give up: about 70 s a test.
    // The test is over, so its connections go now.
    app.server.closeAllConnections();
    await closing;
  }
});

export interface TestServer {
  app: FastifyInstance;
  /** http://127.0.0.1:PORT */
  url: string;
  /** A real HTTP request on loopback; the body comes back as raw text (exact digits preserved). */
  request(path: string, init?: RequestInit & { key?: string }): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }>;
}

/** The real Fastify app listening on an ephemeral loopback port. */
export async function startServer(engine: Engine, options: HttpAppOptions = {}): Promise<TestServer> {
  const app = await buildHttpApp(engine, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  running.push(app);
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    url,
    async request(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      const res = await fetch(url + path, { ...rest, headers });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
    },
  };
}
