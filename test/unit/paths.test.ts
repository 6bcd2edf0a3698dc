import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../src/main/engine/paths';

describe('the default data dir', () => {
  it.each([
    ['linux', {}, join(homedir(), '.config', 'Skein')],
    ['linux', { XDG_CONFIG_HOME: '/x/cfg' }, join('/x/cfg', 'Skein')],
    ['darwin', {}, join(homedir(), 'Library', 'Application Support', 'Skein')],
    ['win32', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, join('C:\\Users\\a\\AppData\\Roaming', 'Skein')],
  ] as const)('on %s with %j is the app-data folder Electron uses', (platform, env, expected) => {
    expect(defaultDataDir(env as NodeJS.ProcessEnv, platform)).toBe(expected);
  });

  it('yields to SKEIN_DATA_DIR', () => {
    expect(defaultDataDir({ SKEIN_DATA_DIR: '/data/skein' }, 'linux')).toBe('/data/skein');
  });
});
