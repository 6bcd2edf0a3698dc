import { balanceOf } from '../engine/ledger';
import { type Command, intOption, parseCommandArgs, UsageError, printUsage, runSubcommand } from './command';
import { withExistingDataDir, userByName } from './open-data-dir';

// `skein users list` and `skein users set-limit`: the api users, their rate limits and credits.
// A new limit applies to the running app's next request (the limiter reads it per request).

const MAX_PER_MINUTE = 100_000; // the CHECK constraint of api_users.per_minute_limit

export const usersCommand: Command = {
  name: 'users',
  summary: 'List api users (limit, credits, keys) or change a rate limit: users list | users set-limit.',
  usage: 'skein users list [--json] [--data-dir DIR]\n       skein users set-limit --user NAME --per-minute N [--data-dir DIR]',
  run(argv) {
    return Promise.resolve(runSubcommand(this, argv, { list, 'set-limit': setLimit }));
  },
};

interface UserRow {
  id: number;
  name: string;
  builtin: number;
  per_minute_limit: number;
  keys: number;
}

function list(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' } });
  if (help) return printUsage(usersCommand);
  return withExistingDataDir(dataDir, (engine) => {
    const rows = engine.db
      .prepare(
        `SELECT u.id, u.name, u.builtin, u.per_minute_limit,
                (SELECT count(*) FROM api_keys k WHERE k.user_id = u.id AND k.revoked_at_ms IS NULL) AS keys
         FROM api_users u ORDER BY u.id`,
      )
      .all() as UserRow[];
    const users = rows.map((u) => {
      const b = balanceOf(engine.db, u.id);
      return { id: u.id, name: u.name, builtin: u.builtin === 1, per_minute_limit: u.per_minute_limit, active_keys: u.keys, credits_available: b.available, credits_held: b.pending };
    });
    if (values.json === true) {
      console.log(JSON.stringify(users, null, 2));
      return 0;
    }
    const table = [
      ['NAME', 'ID', 'PER MINUTE', 'AVAILABLE', 'HELD', 'KEYS'],
      ...users.map((u) => [u.name + (u.builtin ? ' (built-in)' : ''), String(u.id), String(u.per_minute_limit), String(u.credits_available), String(u.credits_held), String(u.active_keys)]),
    ];
    const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
    for (const r of table) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
    return 0;
  });
}

function setLimit(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' }, 'per-minute': { type: 'string' } });
  if (help) return printUsage(usersCommand);
  const perMinute = intOption(values['per-minute'], 'per-minute', { min: 1, max: MAX_PER_MINUTE });
  if (perMinute === undefined) throw new UsageError('--per-minute N is required.');
  return withExistingDataDir(dataDir, (engine) => {
    const user = userByName(engine, values.user);
    engine.db.prepare('UPDATE api_users SET per_minute_limit = ? WHERE id = ?').run(perMinute, user.id);
    console.log(`${user.name}: ${perMinute} requests per minute (was ${user.per_minute_limit}). A running app applies it to the next request.`);
    return 0;
  });
}

