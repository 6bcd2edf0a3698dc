import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine';
import type { KeychainInfo } from '../../shared/contract';
import { createHandlers } from '../engine/handlers';
import { EventHub } from '../engine/handlers/event-hub';
import type { UpstreamKeyStore } from '../engine/handlers/upstream';
import { registerRenderer } from './plugins/renderer';
import { registerAppRpc } from './routes/app-rpc';
import { appSession } from './app-session';
import { appLoginToken } from '../engine/store/app-login-token';

/** The listener's own base URL (http://127.0.0.1:PORT) once it listens, else null. */
export function listenerUrl(app: FastifyInstance): string | null {
  const address = app.server.address();
  if (!address || typeof address !== 'object') return null;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
}

/**
 * Headless mode: the app page and the contract over HTTP, for a browser logged in with the data
 * dir's login token (engine/store/app-login-token.ts, kept across starts; http/app-session.ts).
 */
export async function registerAppPage(
  app: FastifyInstance, engine: Engine, rendererDir: string, keychain?: () => KeychainInfo, upstreamKeyStore: UpstreamKeyStore | null = null,
): Promise<void> {
  const session = appSession(appLoginToken(engine.dataDir, engine.ids));
  const appHandlers = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => listenerUrl(app), keychain, upstreamKeyStore });
  app.addHook('onClose', async () => appHandlers.close());
  await registerAppRpc(app, engine, { session, app: appHandlers });
  await registerRenderer(app, rendererDir, session);
}
