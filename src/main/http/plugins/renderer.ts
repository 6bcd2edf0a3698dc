import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Headless mode: the built renderer is served at / from the same port as the API. */
export async function registerRenderer(app: FastifyInstance, rendererDir: string): Promise<void> {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`The app page is not built (no ${join(rendererDir, 'index.html')}): run \`npm run build\`.`);
  }
  await app.register(fastifyStatic, { root: rendererDir, prefix: '/', index: ['index.html'], wildcard: false });
}
