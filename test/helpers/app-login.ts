import { readAppLoginToken } from '../../src/main/engine/store/app-login-token';
import type { TestServer } from './http';

/**
 * Logs in to a test server's app as a browser does: GET /?token=<the data dir's login token>, and
 * keeps the cookie it sets (`skein-app-<port>=<session>`), to send back as a Cookie header.
 */
export async function logInTo(server: TestServer, dataDir: string): Promise<{ token: string; cookie: string; setCookie: string }> {
  const token = readAppLoginToken(dataDir);
  if (!token) throw new Error(`No login token in ${dataDir}: the server was started without the app page.`);
  const res = await server.request(`/?token=${token}`, { redirect: 'manual' });
  const setCookie = res.headers.get('set-cookie') ?? '';
  if (res.status !== 303 || !setCookie) throw new Error(`The login address answered ${res.status}, set-cookie ${setCookie}`);
  return { token, cookie: setCookie.split(';')[0]!, setCookie };
}
