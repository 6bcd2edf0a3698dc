import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The platform's app-data folder, the same one Electron's app.getPath('userData') gives for an
 * app named "Skein", so the desktop app and headless mode share one data dir by default.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SKEIN_DATA_DIR) return env.SKEIN_DATA_DIR;
  switch (platform) {
    case 'win32':
      return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Skein');
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', 'Skein');
    default:
      return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Skein');
  }
}
