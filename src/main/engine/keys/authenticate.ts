import type { Statement } from 'better-sqlite3';
import type { Engine } from '../engine';
import { fail } from '../errors';
import type { Db } from '../store/db';
import { availableSql, ledgerWrites } from '../ledger';
import { memoized } from '../memo';
import { type ChangeStamp, changeStamp, unchangedSince } from '../store/change-stamp';
import { withoutWaiting } from '../store/without-waiting';
import { hashKey, KEY_PATTERN } from './format';

export interface AuthenticatedUser {
  id: number;
  name: string;
  keyId: number;
  /** The user's rate limit, read with the key so that metering needs no query of its own. */
  perMinuteLimit: number;
  /** The user's available credits when the key was read, with ledgerWrites() then (see Metering.reserve). */
  credits: { available: number; atLedgerWrite: number };
}

interface Row {
  key_id: number;
  revoked_at_ms: number | null;
  last_used_at_ms: number | null;
  user_id: number;
  name: string;
  per_minute_limit: number;
  available: number;
}

// last_used_at_ms is for the settings screen ("used 3 minutes ago"): writing it on every request
// would make each read a write, so it is refreshed at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;
// The header is `Bearer ` + a 51-character key; 512 leaves room for a wrong key worth a message.
const MAX_HEADER_CHARS = 512;

const cache = new WeakMap<Db, { find: Statement; touch: Statement }>();
function stmts(db: Db) {
  let s = cache.get(db);
  if (!s) {
    s = {
      // The balance comes with the key: one statement instead of two on every metered request.
      find: db.prepare(`SELECT k.id AS key_id, k.revoked_at_ms, k.last_used_at_ms, u.id AS user_id, u.name, u.per_minute_limit,
          ${availableSql('a')} AS available
        FROM api_keys k JOIN api_users u ON u.id = k.user_id JOIN ledger_accounts a ON a.user_id = u.id WHERE k.hash = ?`),
      touch: db.prepare('UPDATE api_keys SET last_used_at_ms = ? WHERE id = ?'),
    };
    cache.set(db, s);
  }
  return s;
}

/** The key in an `Authorization: Bearer <key>` header value, or a 401 saying what is wrong. */
export function bearerKey(header: string | string[] | undefined): string {
  if (header === undefined || header === '') {
    throw fail.unauthorized('Missing API key: send the header Authorization: Bearer <key>.');
  }
  if (Array.isArray(header) || header.length > MAX_HEADER_CHARS) {
    throw fail.unauthorized('Malformed Authorization header: expected one header, Bearer <key>.');
  }
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m) throw fail.unauthorized('Malformed Authorization header: expected Bearer <key>.');
  return m[1]!;
}

/**
 * The api user a key belongs to. Unknown and revoked keys: 401. The returned object is shared by
 * the requests that reuse it: do not change it.
 */
export function authenticate(engine: Pick<Engine, 'db' | 'clock'>, key: string): AuthenticatedUser {
  const known = remembered(engine, key);
  if (known) return known;
  if (!KEY_PATTERN.test(key)) {
    throw fail.unauthorized('Unknown API key: Skein keys look like sk_ followed by 48 hex characters (skein keys create).');
  }
  const s = stmts(engine.db);
  const row = s.find.get(hashOf(key)) as Row | undefined;
  if (!row) throw fail.unauthorized('Unknown API key: check the Authorization header (Bearer <key>).');
  if (row.revoked_at_ms !== null) throw fail.unauthorized('This API key was revoked: create a new one with skein keys create.');
  const now = engine.clock.nowMs();
  let usedAtMs = row.last_used_at_ms;
  if (usedAtMs === null || now - usedAtMs >= LAST_USED_RESOLUTION_MS) {
    try {
      // Without waiting for another connection's write lock: with the 5 s busy timeout, a request
      // that came during an import's transaction held the server's thread, and every request
      // behind it, until that transaction ended (180 ms, bench "API p99 during an import").
      withoutWaiting(engine.db, () => s.touch.run(now, row.key_id));
      usedAtMs = now;
    } catch {
      // A busy database (a long import) must not turn a valid request into a failure; the
      // timestamp is refreshed on a later request.
    }
  }
  const user: AuthenticatedUser = {
    id: row.user_id,
    name: row.name,
    keyId: row.key_id,
    perMinuteLimit: row.per_minute_limit,
    credits: { available: row.available, atLedgerWrite: ledgerWrites(engine.db) },
  };
  // Taken after the touch above: that write is already in the row we keep, apart from its time.
  remember(engine.db, key, user, usedAtMs);
  return user;
}

/**
 * A valid key's answer is reused while the database is unchanged since it was read (store/
 * change-stamp.ts): the read was ~10 µs of a ~90 µs request (bench/api: a join of three tables
 * and a read lock), and a script sends the same key every time. Any write at all, by this
 * connection (a revocation, `users set-limit`, a charge) or by another one (the CLI, seen from the
 * next turn of the event loop), makes the next request read the row again, so a revoked key is
 * refused at once and the limit is the current one. The one write that does not is the metering's
 * group commit (store/change-stamp.ts unstamped): it writes ledger rows only, so the balance read
 * with the key is the one value it makes stale, and that carries its own stamp (ledgerWrites,
 * which Metering.reserve compares). Unknown and revoked keys are not kept. At most KEPT_KEYS keys;
 * when full the map starts over.
 */
interface Remembered {
  user: AuthenticatedUser;
  stamp: ChangeStamp;
  /** last_used_at_ms as stored: once it is a minute old the row is read (and touched) again. */
  usedAtMs: number | null;
}

const KEPT_KEYS = 1024;
const kept = new WeakMap<Db, Map<string, Remembered>>();

function remembered(engine: Pick<Engine, 'db' | 'clock'>, key: string): AuthenticatedUser | undefined {
  const { db } = engine;
  const r = kept.get(db)?.get(key);
  if (r === undefined) return undefined;
  const sinceUseMs = r.usedAtMs === null ? Infinity : engine.clock.nowMs() - r.usedAtMs;
  if (sinceUseMs >= 0 && sinceUseMs < LAST_USED_RESOLUTION_MS && unchangedSince(db, r.stamp)) return r.user;
  kept.get(db)!.delete(key);
  return undefined;
}

function remember(db: Db, key: string, user: AuthenticatedUser, usedAtMs: number | null): void {
  let perDb = kept.get(db);
  if (!perDb) kept.set(db, (perDb = new Map()));
  if (perDb.size >= KEPT_KEYS) perDb.clear();
  perDb.set(key, { user, stamp: changeStamp(db), usedAtMs });
}

// A script sends the same key on every request: its SHA-256 (~2 µs of a ~100 µs request) is
// remembered, for the reads that the remembered answer above does not save.
const hashOf = memoized(1024, hashKey);
