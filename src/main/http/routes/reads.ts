import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { registerSpaceRoutes } from './spaces';
import { registerTimelineRoutes } from './timelines';
import { registerTweetRoutes } from './tweets';

/** The spec's read endpoints, 4.1 to 4.5. */
export function registerReadRoutes(app: FastifyInstance, engine: Engine): void {
  registerTimelineRoutes(app, engine);
  registerTweetRoutes(app, engine);
  registerSpaceRoutes(app, engine);
}
