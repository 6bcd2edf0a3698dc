import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInvariants, transfersOf } from '../../src/main/engine/ledger';
import { openDb } from '../../src/main/engine/store/db';
import { migrate, MigrationError } from '../../src/main/engine/store/migrate';
import { migrations, type Migration } from '../../src/main/engine/store/migrations';
import { tempDir } from '../helpers/temp';

// Migration 059 rebuilds ledger_accounts (a wider CHECK on kind) for the upstream account, and 061
// books the spend book's past lines in it: a database written by the previous build must come out whole.

const before059 = migrations.filter((m) => m.id < 59);

function databaseAt058() {
  const db = openDb(join(tempDir(), 'skein.db'));
  migrate(db, before059);
  db.prepare('INSERT INTO api_users (name, created_at_ms) VALUES (?, ?)').run('analyst', 1000); // user 2
  db.exec(`INSERT INTO jobs (id, user_id, kind, params_json, output_format, status, run_at_ms, created_at_ms, updated_at_ms)
           VALUES (7, 2, 'search', '{}', 'json', 'success', 0, 0, 0)`);
  const line = db.prepare('INSERT INTO upstream_spend (id, at_ms, items, request, via, api_user_id, job_id) VALUES (?, ?, ?, ?, ?, ?, ?)');
  line.run('req:1:aa', 2000, 20, '/twitter/search?query=x', 'api', 2, null);
  line.run('job:7:page:0', 3000, 100, '/twitter/search?query=y', 'job', null, 7); // a job's line: its owner pays
  line.run('req:2:bb', 4000, 1, '/twitter/tweets/1', 'app', null, null); // the app's read before 059 named no user
  return db;
}

describe('migrations 059 and 061: the upstream account in the ledger', () => {
  it("books the spend book's past lines in the upstream account, each in its user's history, and keeps every reference whole", () => {
    const db = databaseAt058();
    const accountsBefore = db.prepare("SELECT * FROM ledger_accounts WHERE kind IN ('grants', 'usage', 'user') ORDER BY id").all();
    expect(migrate(db).applied).toEqual(migrations.filter((m) => m.id >= 59).map((m) => m.id));

    expect(db.prepare("SELECT * FROM ledger_accounts WHERE kind IN ('grants', 'usage', 'user') ORDER BY id").all()).toEqual(accountsBefore);
    expect(db.prepare("SELECT kind, debits_posted, credits_posted FROM ledger_accounts WHERE kind LIKE 'upstream%' ORDER BY kind").all()).toEqual([
      { kind: 'upstream', debits_posted: 0, credits_posted: 121 },
      { kind: 'upstream_key', debits_posted: 121, credits_posted: 0 },
    ]);
    expect(db.prepare("SELECT id, amount, job_id, cause_user_id, created_at_ms FROM ledger_transfers WHERE id LIKE 'upstream:%' ORDER BY seq").all()).toEqual([
      { id: 'upstream:req:1:aa', amount: 20, job_id: null, cause_user_id: 2, created_at_ms: 2000 },
      { id: 'upstream:job:7:page:0', amount: 100, job_id: 7, cause_user_id: 2, created_at_ms: 3000 },
      { id: 'upstream:req:2:bb', amount: 1, job_id: null, cause_user_id: 1, created_at_ms: 4000 },
    ]);
    expect(transfersOf(db, 2).filter((t) => t.direction === 'upstream').map((t) => t.amount)).toEqual([20, 100]);
    expect(transfersOf(db, 1).filter((t) => t.direction === 'upstream').map((t) => t.amount)).toEqual([1]);
    expect(checkInvariants(db)).toEqual([]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);

    // The trigger made again still opens an account for a new user; the system kinds stay one each.
    db.prepare('INSERT INTO api_users (name, created_at_ms) VALUES (?, ?)').run('later', 5000);
    expect(db.prepare("SELECT kind FROM ledger_accounts WHERE user_id = (SELECT id FROM api_users WHERE name = 'later')").pluck().get()).toBe('user');
    expect(() => db.exec("INSERT INTO ledger_accounts (kind) VALUES ('upstream')")).toThrow(/UNIQUE/);
    expect(() => db.exec("INSERT INTO ledger_accounts (kind) VALUES ('elsewhere')")).toThrow(/CHECK/);
  });

  it('a spend line without its transfer, or a transfer without its line, is a violation of the full check', () => {
    const db = databaseAt058();
    migrate(db);
    db.exec(`INSERT INTO upstream_spend (id, at_ms, items, request, via, api_user_id, job_id) VALUES ('req:3:cc', 6000, 5, '/x', 'api', 2, NULL)`);
    expect(checkInvariants(db)).toEqual([{ rule: 'upstream_matches_spend_book', detail: "spend line 'req:3:cc' has no upstream transfer of its items" }]);
  });

  it('the runner switches foreign keys off only around such a migration, and refuses one that leaves a broken reference', () => {
    const db = openDb(join(tempDir(), 'skein.db'));
    const parent: Migration = { id: 1, name: '001_parent', sql: 'CREATE TABLE t_p (id INTEGER PRIMARY KEY); CREATE TABLE t_c (p INTEGER REFERENCES t_p (id)); INSERT INTO t_p VALUES (1); INSERT INTO t_c VALUES (1);' };
    const breaks: Migration = { id: 2, name: '002_breaks', sql: 'DELETE FROM t_p;', foreignKeysOff: true };
    expect(() => migrate(db, [parent, breaks])).toThrow(MigrationError);
    expect(() => migrate(db, [parent, breaks])).toThrow(/002_breaks would leave 1 broken references \(first: t_c row 1 -> t_p\)/);
    expect(db.prepare('SELECT count(*) FROM t_p').pluck().get()).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
