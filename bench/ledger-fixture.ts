import { createEngine } from '../src/main/engine/engine';
import { createKey } from '../src/main/engine/keys';
import { grant } from '../src/main/engine/ledger';

// A data dir whose ledger holds `transfers` request charges, as a long-running server leaves it:
// one api user charged 1 credit per request, every transfer and both running sums consistent (the
// invariants hold). The charges are one INSERT ... SELECT from a recursive counter in one
// transaction (~1 s per million here) instead of charge() per request (~15-40 µs each, 40 s per
// million): the rows are exactly what chargeGroup writes (kind 'posted', user -> usage, a `req:`
// id), and the running sums are moved by the same total in the same transaction.

export function writeLedgerFixture(dataDir: string, transfers: number): { seq: number } {
  const engine = createEngine({ dataDir });
  try {
    const { user } = createKey(engine, 'bench', { credits: 0 });
    const nowMs = engine.clock.nowMs();
    grant(engine.db, { transferId: 'bench:credits', userId: user.id, amount: transfers, nowMs });
    const { db } = engine;
    const account = (db.prepare('SELECT id FROM ledger_accounts WHERE user_id = ?').get(user.id) as { id: number }).id;
    db.transaction(() => {
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, memo, created_at_ms)
         SELECT 'req:bench:' || printf('%012d', i), 'posted', ?, 2, 1, NULL, ? + i FROM n`,
      ).run(transfers, account, nowMs);
      db.prepare('UPDATE ledger_accounts SET debits_posted = debits_posted + ? WHERE id = ?').run(transfers, account);
      db.prepare('UPDATE ledger_accounts SET credits_posted = credits_posted + ? WHERE id = 2').run(transfers);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { seq: (db.prepare('SELECT max(seq) AS s FROM ledger_transfers').get() as { s: number }).s };
  } finally {
    engine.close();
  }
}
