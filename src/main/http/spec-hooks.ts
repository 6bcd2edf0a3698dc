import type { FastifyInstance, RouteOptions } from 'fastify';
import './request-context';

type HookName = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'onSend' | 'onResponse' | 'onRequestAbort';
type RouteHooks = { [K in HookName]?: NonNullable<RouteOptions[K]> extends infer H ? (H extends readonly (infer F)[] ? F : H) : never };

/**
 * Adds hooks to every spec route (config `spec: true`) registered after this call, after the
 * route's own hooks of the same kind; app.ts calls it (through auth and metering) before it
 * registers any route, and test/integration/api-auth.test.ts asks every spec path for its key.
 * `make` sees the route's config, so a hook knows its route's settings (maxCost) without asking
 * per request.
 *
 * Why route hooks rather than app hooks that test `request.routeOptions.config.spec`: that getter
 * builds a 13-field object on every read, and the spec pipeline read it four times per request
 * (bench/api); non-spec routes (the app page, its assets) now run no spec hook at all.
 */
export function onSpecRoutes(app: FastifyInstance, make: (config: NonNullable<RouteOptions['config']>) => RouteHooks): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.spec !== true) return;
    const hooks = make(route.config);
    for (const name of Object.keys(hooks) as HookName[]) {
      const own = route[name];
      const list = own === undefined ? [] : Array.isArray(own) ? own : [own];
      (route as Record<HookName, unknown>)[name] = [...list, hooks[name]];
    }
  });
}
