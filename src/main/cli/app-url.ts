import { existsSync } from 'node:fs';
import { readAppLoginToken } from '../engine/store/app-login-token';
import { loginUrl } from '../http/app-session';
import { type Command, intOption, parseCommandArgs, printUsage, UsageError } from './command';
import { DEFAULT_HOST, DEFAULT_PORT } from './serve';

// For whoever lost the terminal `skein serve` printed its login address in: the same address,
// from the token file in the data dir. Only the data dir's owner can read that file (0600 in a
// 0700 dir), so only they can print it.
export const appUrlCommand: Command = {
  name: 'app-url',
  summary: "Print the address that logs a browser in to the app of 'skein serve' (.../?token=...).",
  usage: 'skein app-url [--port 7878] [--host 127.0.0.1] [--data-dir DIR]',
  async run(argv) {
    const { values, dataDir, help } = parseCommandArgs(argv, { port: { type: 'string' }, host: { type: 'string' } });
    if (help) return printUsage(this);
    const port = intOption(values.port, 'port', { min: 1, max: 65535 }) ?? DEFAULT_PORT;
    const host = (values.host as string | undefined) ?? DEFAULT_HOST;
    if (!existsSync(dataDir)) throw new UsageError(`No Skein data in ${dataDir}: start 'skein serve' once, or pass --data-dir.`);
    const token = readAppLoginToken(dataDir);
    if (!token) throw new UsageError(`No login token in ${dataDir} yet: 'skein serve' makes one when it starts.`);
    const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    // 0.0.0.0 is where a server listens, not an address a browser can open.
    const openable = shownHost === '0.0.0.0' || shownHost === '[::]' ? DEFAULT_HOST : shownHost;
    console.log(loginUrl(`http://${openable}:${port}`, token));
    return 0;
  },
};
