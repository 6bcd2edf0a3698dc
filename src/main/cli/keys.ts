import { createEngine } from '../engine/engine';
import { SkeinError } from '../engine/errors';
import { createKey, DEFAULT_OPENING_CREDITS, listKeys, MAX_OPENING_CREDITS, revokeKey } from '../engine/keys';
import { balanceOf } from '../engine/ledger';
import { type Command, intOption, parseCommandArgs, UsageError, printUsage, runSubcommand } from './command';
import { withExistingDataDir } from './open-data-dir';

// `skein keys create | revoke | list`: the spec's "per user" keys. A key is printed once and
// stored only as its SHA-256.

export const keysCommand: Command = {
  name: 'keys',
  summary: 'Create, revoke and list API keys: keys create | keys revoke | keys list.',
  usage:
    'skein keys create --name NAME [--credits N] [--json] [--data-dir DIR]\n' +
    '       skein keys revoke KEY|PREFIX|NUMBER [--json] [--data-dir DIR]\n' +
    '       skein keys list [--json] [--data-dir DIR]\n' +
    `--credits N: a new user starts with exactly N credits (0 allowed; default ${DEFAULT_OPENING_CREDITS}).`,
  run(argv) {
    return Promise.resolve(runSubcommand(this, argv, { create, revoke, list }));
  },
};

/** Engine errors (a bad name, an unknown key) are the user's mistakes: shown as usage errors. */
function asUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SkeinError && err.code !== 'internal') throw new UsageError(err.message);
    throw err;
  }
}

function create(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { name: { type: 'string' }, credits: { type: 'string' }, json: { type: 'boolean' } });
  if (help) return printUsage(keysCommand);
  if (typeof values.name !== 'string') throw new UsageError('--name NAME is required.');
  // --credits N is the new user's whole starting balance (0 allowed), not an amount on top of a default.
  const credits = intOption(values.credits, 'credits', { min: 0, max: MAX_OPENING_CREDITS });
  // A first key may come before the app ever ran: the data dir is made here then.
  const engine = createEngine({ dataDir });
  try {
    const created = asUsage(() => createKey(engine, values.name, { credits }));
    const available = balanceOf(engine.db, created.user.id).available;
    if (values.json === true) {
      console.log(JSON.stringify({
        user: { id: created.user.id, name: created.user.name, created: created.user.created },
        key: created.key,
        key_id: created.keyId,
        prefix: created.prefix,
        credits_granted: created.openingCredits,
        credits_available: available,
      }));
      return 0;
    }
    console.log(created.user.created
      ? `Created user ${created.user.name} with ${created.openingCredits} credits${credits === undefined ? ' (the default opening balance)' : ''}.`
      : `Added a key to user ${created.user.name} (available: ${available}).`);
    console.log('');
    console.log(`  ${created.key}`);
    console.log('');
    console.log('This key is shown once: store it now (Skein keeps only its hash).');
    console.log(`Use it as: Authorization: Bearer ${created.prefix}...    Revoke it with: skein keys revoke ${created.prefix}`);
    return 0;
  } finally {
    engine.close();
  }
}

function revoke(argv: string[]): number {
  const { values, positionals, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' } }, true);
  if (help) return printUsage(keysCommand);
  if (positionals.length !== 1) throw new UsageError('give one key: the whole key, its prefix (sk_ and 8 hex) or its number from skein keys list.');
  return withExistingDataDir(dataDir, (engine) => {
    const r = asUsage(() => revokeKey(engine, positionals[0]!));
    if (values.json === true) {
      console.log(JSON.stringify({ key_id: r.keyId, prefix: r.prefix, user: r.userName, revoked_now: r.revokedNow, revoked_at: new Date(r.revokedAtMs).toISOString() }));
    } else {
      console.log(r.revokedNow
        ? `Revoked key ${r.keyId} (${r.prefix}...) of ${r.userName}: requests with it now get 401.`
        : `Key ${r.keyId} (${r.prefix}...) of ${r.userName} was already revoked on ${new Date(r.revokedAtMs).toISOString()}.`);
    }
    return 0;
  });
}

function list(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' } });
  if (help) return printUsage(keysCommand);
  return withExistingDataDir(dataDir, (engine) => {
    const users = listKeys(engine.db);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    if (values.json === true) {
      console.log(JSON.stringify(users.map((u) => ({
        user: u.name,
        user_id: u.id,
        builtin: u.builtin,
        keys: u.keys.map((k) => ({ key_id: k.keyId, prefix: k.prefix, created_at: iso(k.createdAtMs), last_used_at: iso(k.lastUsedAtMs), revoked_at: iso(k.revokedAtMs) })),
      })), null, 2));
      return 0;
    }
    const rows = [['USER', 'KEY', 'PREFIX', 'CREATED', 'LAST USED', 'STATE']];
    for (const u of users) {
      if (u.keys.length === 0) rows.push([u.name + (u.builtin ? ' (built-in)' : ''), '-', '-', '-', '-', 'no keys']);
      for (const k of u.keys) {
        rows.push([u.name, String(k.keyId), `${k.prefix}...`, iso(k.createdAtMs)!.slice(0, 19), k.lastUsedAtMs === null ? 'never' : iso(k.lastUsedAtMs)!.slice(0, 19), k.revokedAtMs === null ? 'active' : 'revoked']);
      }
    }
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd());
    return 0;
  });
}
