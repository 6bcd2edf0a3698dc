import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { onSpecRoutes } from '../../src/main/http/spec-hooks';

// Route hooks for spec routes only (http/spec-hooks.ts): which routes get them, in what order,
// and that each sees its own route's config.

describe('onSpecRoutes', () => {
  it('adds hooks to spec routes only, after their own hooks, each knowing its route config', async () => {
    const app = Fastify();
    const calls: string[] = [];
    onSpecRoutes(app, (config) => ({
      onRequest(_request, _reply, done) {
        calls.push(`spec onRequest maxCost=${String(config.maxCost)}`);
        done();
      },
      preHandler(_request, _reply, done) {
        calls.push('spec preHandler');
        done();
      },
    }));
    app.get('/spec', {
      config: { spec: true, maxCost: 20 },
      preHandler: (_request, _reply, done) => {
        calls.push('own preHandler');
        done();
      },
      handler: async () => 'spec',
    });
    app.get('/other', async () => 'other');
    app.get('/free', { config: { spec: true, maxCost: 0 } }, async () => 'free');

    expect((await app.inject('/other')).body).toBe('other');
    expect(calls).toEqual([]);
    expect((await app.inject('/spec')).body).toBe('spec');
    expect(calls).toEqual(['spec onRequest maxCost=20', 'own preHandler', 'spec preHandler']);
    calls.length = 0;
    await app.inject('/free');
    expect(calls).toEqual(['spec onRequest maxCost=0', 'spec preHandler']);
    await app.close();
  });
});
