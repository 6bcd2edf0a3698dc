import { join } from 'node:path';
import { type Clock, systemClock } from './clock';
import { type IdSource, cryptoIds } from './ids';
import { openDb, type Db } from './store/db';
import { migrate } from './store/migrate';
import { makeDataDirPrivate, makeDbFilesPrivate } from './store/private-dir';
import { startLedger } from './ledger/start';
import { recoverFloats } from './metering/float-recovery';
import { CHECKPOINT_EVERY_MS, startCheckpointer } from './ledger/checkpointer';
import { envKeySource, type KeySource } from './upstream/key-source';
import type { SecretKeeper } from './webhooks/secret-store';

export interface EngineOptions {
  dataDir: string;
  clock?: Clock;
  ids?: IdSource;
  /** better-sqlite3 binary for the running runtime (the desktop shell passes Electron's build). */
  nativeBinding?: string;
  /**
   * Where the upstream API key comes from (the shell passes the OS keychain's, else
   * SKEIN_UPSTREAM_KEY): the engine never imports the keychain itself.
   */
  upstreamKeys?: KeySource;
  /**
   * The OS keychain, where one answers (the shell opens it: platform/keychain.ts); null or absent
   * where none does. Webhook signing secrets are kept there (webhooks/secret-store.ts).
   */
  keychain?: SecretKeeper | null;
  /**
   * false: open without the ledger's start (no hold released, no check): `skein doctor` opens a
   * ledger that may be broken to report everything wrong with it.
   */
  startLedger?: boolean;
  /** How often the ledger checkpoint catches up while the engine is open (0: never). */
  ledgerCheckpointEveryMs?: number;
}

/**
 * The composition root: one engine per data dir, shared by the HTTP API, the IPC handlers and the
 * CLI. Each capability is a plain object built from the same database, clock and id source, so a
 * test can build a whole engine on a temp dir with a manual clock.
 */
export interface Engine {
  readonly dataDir: string;
  readonly dbFile: string;
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly upstreamKeys: KeySource;
  readonly keychain: SecretKeeper | null;
  close(): void;
}

export function dbFileOf(dataDir: string): string {
  return join(dataDir, 'skein.db');
}

export function createEngine(options: EngineOptions): Engine {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? cryptoIds;
  const dbFile = dbFileOf(options.dataDir);
  makeDataDirPrivate(options.dataDir);
  const db = openDb(dbFile, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    makeDbFilesPrivate(dbFile);
    migrate(db);
    if (options.startLedger !== false) {
      startLedger(db, clock.nowMs()); // releases holds of ended jobs; unsound books stop the start
      recoverFloats(db, options.dataDir, clock.nowMs()); // settles the metering floats of API processes that are gone
    }
  } catch (err) {
    db.close();
    throw err;
  }
  const everyMs = options.ledgerCheckpointEveryMs ?? CHECKPOINT_EVERY_MS;
  const checkpointer = everyMs > 0 ? startCheckpointer(db, () => clock.nowMs(), everyMs) : null;
  const engine: Engine = {
    dataDir: options.dataDir,
    dbFile,
    db,
    clock,
    ids,
    upstreamKeys: options.upstreamKeys ?? envKeySource(),
    keychain: options.keychain ?? null,
    close() {
      checkpointer?.stop();
      if (db.open) db.close();
    },
  };
  return engine;
}
