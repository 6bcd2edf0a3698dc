import { chmodSync, linkSync, lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IdSource } from '../ids';
import { PRIVATE_FILE_MODE } from './private-dir';

// The headless app's login secret (issue 13, point 14): whoever holds it may use the app page and
// its API (`/app/*`), which can mint keys with credits. It lives in the data dir (0700, the file
// 0600), so only the data dir's owner can read it, and it is kept across starts, so a browser
// logged in once stays logged in when `skein serve` restarts on the same data dir. Deleting the
// file and restarting logs every browser out.
export const APP_LOGIN_TOKEN_FILE = 'app-login-token';
/** 32 random bytes as hex, as for API keys. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[0-9a-f]{64}$/;

export function appLoginTokenPath(dataDir: string): string {
  return join(dataDir, APP_LOGIN_TOKEN_FILE);
}

/** The data dir's login token, or null while no `skein serve` has made one (or the file is not one). */
export function readAppLoginToken(dataDir: string): string | null {
  const path = appLoginTokenPath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (!TOKEN_SHAPE.test(text)) return null;
  // A copy restored from elsewhere may have come back readable by others.
  const st = lstatSync(path);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) chmodSync(path, PRIVATE_FILE_MODE);
  return text;
}

/**
 * The data dir's login token, made on first use. Two processes starting at once agree on one: the
 * token is written whole to a private temporary file and linked into place, which fails for the
 * second (EEXIST), who then reads the first one's. A file that does not hold a token (emptied,
 * edited) is replaced.
 */
export function appLoginToken(dataDir: string, ids: IdSource): string {
  const existing = readAppLoginToken(dataDir);
  if (existing) return existing;
  const path = appLoginTokenPath(dataDir);
  const token = ids.randomHex(TOKEN_BYTES);
  const temp = `${path}.${ids.randomHex(6)}.tmp`;
  writeFileSync(temp, `${token}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  try {
    chmodSync(temp, PRIVATE_FILE_MODE); // the mode above is masked by the umask; 0600 whatever it is
    try {
      linkSync(temp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // Someone else's token is there: take it, unless it is not a token at all.
      if (readAppLoginToken(dataDir) === null) renameSync(temp, path);
    }
  } finally {
    rmSync(temp, { force: true });
  }
  const kept = readAppLoginToken(dataDir);
  if (!kept) throw new Error(`Could not keep the app's login token in ${path}.`);
  return kept;
}
