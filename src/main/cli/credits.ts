import { availableChange, balanceOf, grant, transfersOf, upstreamItemsOf } from '../engine/ledger';
import { heldByFloats } from '../engine/ledger/float';
import { SkeinError } from '../engine/errors';
import { type Command, intOption, parseCommandArgs, UsageError, printUsage, runSubcommand } from './command';
import { withExistingDataDir, userByName } from './open-data-dir';

// `skein credits grant` and `skein credits ledger`: add credits, and read a user's transfers with
// the available balance after each one (every credit accounted for).

const MAX_GRANT = 1_000_000_000; // one grant; several grants can go higher
const PAGE = 10_000;

export const creditsCommand: Command = {
  name: 'credits',
  summary: "Grant credits to an api user or show a user's ledger: credits grant | credits ledger.",
  usage:
    'skein credits grant --user NAME --amount N [--id ID] [--memo TEXT] [--data-dir DIR]\n' +
    '       skein credits ledger --user NAME [--json] [--limit N] [--data-dir DIR]',
  run(argv) {
    return Promise.resolve(runSubcommand(this, argv, { grant: grantCmd, ledger: ledgerCmd }));
  },
};

function grantCmd(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' }, amount: { type: 'string' }, id: { type: 'string' }, memo: { type: 'string' } });
  if (help) return printUsage(creditsCommand);
  const amount = intOption(values.amount, 'amount', { min: 1, max: MAX_GRANT });
  if (amount === undefined) throw new UsageError('--amount N is required.');
  const memo = values.memo as string | undefined;
  if (memo !== undefined && memo.length > 500) throw new UsageError('--memo takes at most 500 characters.');
  return withExistingDataDir(dataDir, (engine) => {
    const user = userByName(engine, values.user);
    const nowMs = engine.clock.nowMs();
    // --id makes a scripted grant safe to retry: the same id grants once.
    const id = values.id === undefined ? `grant:cli:${nowMs}:${engine.ids.randomHex(6)}` : `grant:cli:${String(values.id)}`;
    try {
      const r = grant(engine.db, { transferId: id, userId: user.id, amount, nowMs, memo: memo ?? 'skein credits grant' });
      const b = balanceOf(engine.db, user.id);
      console.log(
        r.created
          ? `Granted ${amount} credits to ${user.name}. Available: ${b.available} (held for jobs: ${b.pending - heldByFloats(engine.db, user.id)}).`
          : `Grant '${values.id}' was already made; nothing changed. Available: ${b.available}.`,
      );
    } catch (err) {
      if (err instanceof SkeinError && err.code === 'conflict') throw new UsageError(`--id ${String(values.id)} was already used for a different grant.`);
      throw err;
    }
    return 0;
  });
}

interface Line {
  seq: number;
  id: string;
  created_at: string;
  /** A transfer's kind; 'upstream' for items the upstream billed for this user's request. */
  kind: string;
  amount: number;
  /** What the line did to the available balance: + grant or released hold, - charge or hold. */
  available_change: number;
  available_after: number;
  job_id: number | null;
  hold_id: string | null;
  memo: string | null;
  /** Items the upstream billed for this line's request (the ledger's upstream account paid them); 0 on other lines. */
  upstream_items: number;
}

function ledgerCmd(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' }, json: { type: 'boolean' }, limit: { type: 'string' } });
  if (help) return printUsage(creditsCommand);
  const limit = intOption(values.limit, 'limit', { min: 1, max: 1_000_000 }) ?? 100;
  return withExistingDataDir(dataDir, (engine) => {
    const user = userByName(engine, values.user);
    const last: Line[] = [];
    let total = 0;
    let available = 0;
    for (let after = 0; ; ) {
      const page = transfersOf(engine.db, user.id, { afterSeq: after, limit: PAGE });
      for (const t of page) {
        const change = availableChange(t);
        available += change;
        total++;
        const upstream = t.direction === 'upstream';
        last.push({
          seq: t.seq, id: t.id, created_at: new Date(t.createdAtMs).toISOString(), kind: upstream ? 'upstream' : t.kind, amount: t.amount,
          available_change: change, available_after: available, job_id: t.jobId, hold_id: t.pendingId ?? (t.kind === 'pending' ? t.id : null), memo: t.memo,
          upstream_items: upstream ? t.amount : 0,
        });
        if (last.length > limit) last.shift();
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.seq;
    }
    const b = balanceOf(engine.db, user.id);
    if (values.json === true) {
      const byServer = heldByFloats(engine.db, user.id);
      console.log(JSON.stringify({ user: user.name, available: b.available, held: b.pending, held_by_api_server: byServer, upstream_items: upstreamItemsOf(engine.db, user.id), transfers_total: total, transfers: last }, null, 2));
      return 0;
    }
    const upstreamItems = upstreamItemsOf(engine.db, user.id);
    console.log(
      `${user.name}: ${b.available} credits available, ${heldText(b.pending, heldByFloats(engine.db, user.id))}. ${total} transfers${total > last.length ? `, the last ${last.length} shown (--limit N)` : ''}.` +
        (upstreamItems > 0 ? ` The upstream billed ${upstreamItems} items for this user's requests (kind 'upstream' below; they do not change the balance).` : ''),
    );
    const rows = [['TIME (UTC)', 'KIND', 'CHANGE', 'AVAILABLE', 'ID', 'MEMO'], ...last.map((l) => [l.created_at.replace('T', ' ').slice(0, 19), l.kind, (l.available_change > 0 ? '+' : '') + l.available_change, String(l.available_after), l.id, l.kind === 'upstream' ? `the upstream billed ${l.upstream_items} items (${l.memo ?? ''})` : (l.memo ?? '')])];
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const r of rows) console.log(r.map((cell, c) => (c === 2 || c === 3 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd());
    return 0;
  });
}

/**
 * Held credits in words. A running API server's metering float (ledger/float.ts) is held too, but
 * not for a job: said apart, so "held for running jobs" never counts credits no job holds.
 */
function heldText(pending: number, byServer: number): string {
  const jobs = `${pending - byServer} held for running jobs`;
  return byServer > 0 ? `${jobs}, ${byServer} held by the API server while another program writes to the database` : jobs;
}
