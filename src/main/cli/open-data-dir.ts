import { existsSync } from 'node:fs';
import { createEngine, dbFileOf, type Engine } from '../engine/engine';
import { findUserByName } from '../engine/keys';
import { UsageError } from './command';

/**
 * Opens the engine of an existing data dir for a short CLI command. It runs beside a running app
 * safely: SQLite WAL plus the busy timeout, and each command is one short write transaction.
 */
function openExistingDataDir(dataDir: string): Engine {
  if (!existsSync(dbFileOf(dataDir))) {
    throw new UsageError(`No Skein data in ${dataDir}: start the app or 'skein serve' once, or pass --data-dir.`);
  }
  return createEngine({ dataDir });
}

/** Runs a short CLI command on the engine of an existing data dir, closing it however it ends. */
export function withExistingDataDir<T>(dataDir: string, command: (engine: Engine) => T): T {
  const engine = openExistingDataDir(dataDir);
  try {
    return command(engine);
  } finally {
    engine.close();
  }
}

/** withExistingDataDir for a command that awaits (a request to an upstream) before it is done. */
export async function withExistingDataDirAsync<T>(dataDir: string, command: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = openExistingDataDir(dataDir);
  try {
    return await command(engine);
  } finally {
    engine.close();
  }
}

/** The api user named on the command line, or a usage error that lists what exists. */
export function userByName(engine: Engine, name: unknown): { id: number; name: string; per_minute_limit: number } {
  if (typeof name !== 'string' || name === '') throw new UsageError('--user NAME is required.');
  const user = findUserByName(engine.db, name);
  if (!user) {
    const names = (engine.db.prepare('SELECT name FROM api_users ORDER BY id LIMIT 20').all() as { name: string }[]).map((r) => r.name);
    throw new UsageError(`No api user named '${name}'. Users: ${names.join(', ')}.`);
  }
  return user;
}
