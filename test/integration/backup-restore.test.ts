import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { startJobRunner } from '../../src/main/engine/jobs';
import { checkInvariants } from '../../src/main/engine/ledger';
import { buildHttpApp } from '../../src/main/http/app';
import { runCli } from '../helpers/cli';
import { builtCli, startSkein } from '../helpers/skein-process';
import { tempDir } from '../helpers/temp';
import { apiKey } from '../fixtures/api-corpus';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// `skein backup` and `skein restore` (issue 13, point 17) on real data dirs: a backup taken while
// a real `skein serve` collects a job and charges reads, restored into a fresh data dir; restore
// refused while a server has the database open; the replaced database and its files kept aside;
// exports copied with --with-exports and put back; bad files refused with nothing changed.

const REPLIES = 20_000;

/** Every file under a folder with a hash of its bytes: "nothing changed" is this, equal before and after. */
function snapshotOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (path: string, rel: string): void => {
    const st = statSync(path);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name), rel ? `${rel}/${name}` : name);
    else out[rel] = `${st.mode.toString(8)}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  };
  visit(dir, '');
  return out;
}

/** The HTTP app on a closed-over engine, requests by inject (no port). */
async function appOn(engine: Engine) {
  const app = await buildHttpApp(engine);
  return {
    get: async (path: string, key?: string) => {
      const res = await app.inject({ method: 'GET', url: path, headers: key ? { authorization: `Bearer ${key}` } : {} });
      return { status: res.statusCode, body: res.body };
    },
    post: async (path: string, key: string) => {
      const res = await app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${key}` } });
      return { status: res.statusCode, body: res.body };
    },
    close: () => app.close(),
  };
}

/** A data dir whose engine ran `jobs` reply jobs to success (inline runner); closed when it returns. */
async function dataDirWithJobs(replies: number, formats: readonly ('csv' | 'json')[]): Promise<{ dataDir: string; key: string; files: string[] }> {
  const dataDir = tempDir();
  const engine = createEngine({ dataDir });
  try {
    writeConversation(engine.db, replies, 2);
    const key = apiKey(engine);
    const app = await appOn(engine);
    const runner = startJobRunner(engine, { mode: 'inline', pollMs: 20 });
    try {
      for (const format of formats) expect((await app.post(`/social/tweets/${ROOT_ID}/comments/asyncJob?output_format=${format}`, key)).status).toBe(200);
      await runner.idle();
    } finally {
      await runner.stop();
      await app.close();
    }
    const files = engine.db.prepare("SELECT result_file FROM jobs WHERE status = 'success' ORDER BY id").pluck().all() as string[];
    expect(files).toHaveLength(formats.length);
    return { dataDir, key, files };
  } finally {
    engine.close();
  }
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
}

const oneLine = (text: string): void => {
  expect(text.trim().split('\n')).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /);
};

describe('skein backup and skein restore', () => {
  it('are listed by skein --help, each with its options', async () => {
    const help = await runCli('--help');
    expect(help.out).toMatch(/^ {2}backup +Copy the database to a file while Skein runs/m);
    expect(help.out).toMatch(/^ {2}restore +Replace the data dir's database with a backup/m);
    expect((await runCli('backup', '--help')).out).toContain('Usage: skein backup --to FILE [--with-exports] [--force] [--json] [--data-dir DIR]');
    expect((await runCli('restore', '--help')).out).toContain('Usage: skein restore FILE [--force] [--json] [--data-dir DIR]');
    expect((await runCli('backup', '--data-dir', tempDir())).err).toContain('--to FILE is required.');
  });

  // A server start and a 20,000-reply corpus: tens of seconds on a loaded 2-core machine.
  it('backs up while skein serve collects a job and charges reads; restore waits for the server to stop; the backup serves the same posts', { timeout: 300_000 }, async () => {
    const dataDir = tempDir();
    const setup = createEngine({ dataDir });
    const convo = writeConversation(setup.db, REPLIES, 50);
    const key = apiKey(setup);
    setup.close();
    const reads = [ROOT_ID, convo.level1[0]!, convo.level1[REPLIES - 1]!, convo.level2[0]!].map(String);
    const backup = join(tempDir(), 'skein-backup.db');

    let backupTransfers = 0;
    const server = await startSkein(dataDir);
    const answers: Record<string, string> = {};
    try {
      const auth = { authorization: `Bearer ${key}` };
      for (const id of reads) answers[id] = await (await fetch(`${server.url}/social/tweets/${id}`, { headers: auth })).text();
      const job = await fetch(`${server.url}/social/tweets/${ROOT_ID}/comments/asyncJob`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ output_format: 'csv' }),
      });
      expect(job.status).toBe(200);
      const jobId = ((await job.json()) as { job_id: number }).job_id;
      for (;;) {
        const s = (await (await fetch(`${server.url}/jobs/${jobId}`, { headers: auth })).json()) as { status: string; progress: number };
        // Rows charged: the job's hold and its charges are in flight when the backup starts.
        if (s.progress > 0 || s.status === 'success' || s.status === 'error') break;
        await new Promise((r) => setTimeout(r, 5));
      }
      // Charged reads go on during the whole backup: each one is a ledger transfer the server writes.
      let charged = 0;
      let reading = true;
      const reader = (async () => {
        while (reading) {
          const r = await fetch(`${server.url}/social/tweets/${reads[charged % reads.length]}`, { headers: auth });
          expect(r.status).toBe(200);
          await r.arrayBuffer();
          charged++;
        }
      })();
      while (charged < 5) await new Promise((r) => setTimeout(r, 5));
      const made = await runCli('backup', '--to', backup, '--data-dir', dataDir);
      // Two more charges after the backup: the live ledger has moved on past the copy's.
      const atEnd = charged;
      while (charged < atEnd + 2) await new Promise((r) => setTimeout(r, 5));
      reading = false;
      await reader;
      expect(made.err).toBe('');
      expect(made.code).toBe(0);
      expect(made.out).toContain('SQLite: every page of the backup reads back (quick_check ok).');
      expect(made.out.startsWith(`Wrote ${backup}: `)).toBe(true);
      expect(statSync(backup).mode & 0o777).toBe(0o600);
      expect(readdirSync(join(backup, '..'))).toEqual(['skein-backup.db']);

      const copy = new Database(backup, { readonly: true });
      try {
        expect(copy.prepare('PRAGMA quick_check').pluck().all()).toEqual(['ok']);
        expect(checkInvariants(copy)).toEqual([]);
        expect(copy.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(jobId)).toBeDefined();
        backupTransfers = copy.prepare('SELECT count(*) FROM ledger_transfers').pluck().get() as number;
        expect(made.out).toContain(`${backupTransfers} ledger transfers`);
        expect(made.out).toContain(`It holds ${copy.prepare('SELECT count(*) FROM posts').pluck().get() as number} posts`);
      } finally {
        copy.close();
      }

      const refused = await runCli('restore', backup, '--force', '--data-dir', dataDir);
      expect(refused.code).toBe(1);
      oneLine(refused.err);
      expect(refused.err).toContain(`${join(dataDir, 'skein.db')} is open in a running Skein`);
      expect(readdirSync(dataDir).filter((n) => n.startsWith('before-restore') || n.includes('restoring'))).toEqual([]);
      expect((await fetch(`${server.url}/social/tweets/${reads[0]}`, { headers: auth })).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const live = new Database(join(dataDir, 'skein.db'), { readonly: true });
    try {
      expect(live.prepare('SELECT count(*) FROM ledger_transfers').pluck().get()).toBeGreaterThan(backupTransfers);
    } finally {
      live.close();
    }

    const fresh = join(tempDir(), 'restored');
    const restored = await runCli('restore', backup, '--data-dir', fresh);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(`Restored ${backup} into ${join(fresh, 'skein.db')}.`);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    expect(statSync(join(fresh, 'skein.db')).mode & 0o777).toBe(0o600);
    const engine = createEngine({ dataDir: fresh });
    const app = await appOn(engine);
    try {
      for (const id of reads) {
        const r = await app.get(`/social/tweets/${id}`, key);
        expect(r.status, id).toBe(200);
        expect(r.body, id).toBe(answers[id]);
      }
      expect(checkInvariants(engine.db)).toEqual([]);
    } finally {
      await app.close();
      engine.close();
    }
  });

  it('--with-exports copies the data files beside the backup; restore puts them into a fresh data dir, where they are served', async () => {
    const { dataDir, key, files } = await dataDirWithJobs(40, ['csv', 'json']);
    const plain = join(tempDir(), 'plain.db');
    const referenced = await runCli('backup', '--to', plain, '--data-dir', dataDir);
    expect(referenced.code).toBe(0);
    expect(referenced.out).toMatch(/Export files: the backup refers to 2 files \(.+\) in .+; they were NOT copied \(add --with-exports to copy them\)\./);
    expect(existsSync(`${plain}.exports`)).toBe(false);

    const backup = join(tempDir(), 'with-exports.db');
    const made = await runCli('backup', '--to', backup, '--with-exports', '--json', '--data-dir', dataDir);
    expect(made.code).toBe(0);
    const report = JSON.parse(made.out) as { exports: { referenced: number; copied: number; copied_to: string } };
    expect(report.exports).toMatchObject({ referenced: 2, copied: 2, copied_to: `${backup}.exports` });
    expect(readdirSync(`${backup}.exports`).sort()).toEqual([...files].sort());
    for (const name of files) {
      expect(readFileSync(join(`${backup}.exports`, name))).toEqual(readFileSync(join(dataDir, 'exports', name)));
      expect(statSync(join(`${backup}.exports`, name)).mode & 0o777).toBe(0o600);
    }

    const fresh = tempDir();
    const restored = await runCli('restore', backup, '--json', '--data-dir', fresh);
    expect(restored.code).toBe(0);
    expect((JSON.parse(restored.out) as { exports: object }).exports).toMatchObject({ referenced: 2, copied: 2, missing: [], moved_aside: 0 });
    const engine = createEngine({ dataDir: fresh });
    const app = await appOn(engine);
    try {
      for (const name of files) {
        expect(readFileSync(join(fresh, 'exports', name))).toEqual(readFileSync(join(dataDir, 'exports', name)));
        expect(statSync(join(fresh, 'exports', name)).mode & 0o777).toBe(0o600);
      }
      const jobs = engine.db.prepare("SELECT id FROM jobs WHERE status = 'success'").pluck().all() as number[];
      for (const id of jobs) {
        const { result } = JSON.parse((await app.get(`/jobs/${id}`, key)).body) as { result: { datafile_url: string } };
        const served = await app.get(new URL(result.datafile_url).pathname);
        expect(served.status).toBe(200);
      }
    } finally {
      await app.close();
      engine.close();
    }

    // Without the copies, the restored database refers to files it does not find, and says so.
    const bare = tempDir();
    const said = await runCli('restore', plain, '--data-dir', bare);
    expect(said.code).toBe(0);
    expect(said.out).toContain(`Missing from exports/ (the backup was made without --with-exports): ${files.join(', ')}.`);
  });

  it('restore over a database needs --force, then keeps that database and the files only it refers to aside', async () => {
    // Two histories whose job 1 writes a file of the same name with other rows.
    const theirs = await dataDirWithJobs(30, ['csv']);
    const ours = await dataDirWithJobs(12, ['csv']);
    const name = ours.files[0]!;
    expect(theirs.files[0]).toBe(name);
    const backup = join(tempDir(), 'theirs.db');
    expect((await runCli('backup', '--to', backup, '--with-exports', '--data-dir', theirs.dataDir)).code).toBe(0);
    const oursFile = readFileSync(join(ours.dataDir, 'exports', name));
    const oursDb = readFileSync(join(ours.dataDir, 'skein.db'));
    writeFileSync(join(ours.dataDir, 'exports', 'notes-by-hand.txt'), 'x'); // an unrelated file stays where it is

    const before = snapshotOf(ours.dataDir);
    const asked = await runCli('restore', backup, '--data-dir', ours.dataDir);
    expect(asked.code).toBe(1);
    oneLine(asked.err);
    expect(asked.err).toMatch(/already has a database: add --force to replace it with .*theirs\.db; the current one will be kept in .*\/before-restore-[0-9TZ-]+\/\./);
    expect(snapshotOf(ours.dataDir)).toEqual(before);

    const done = await runCli('restore', backup, '--force', '--data-dir', ours.dataDir);
    expect(done.code).toBe(0);
    const aside = readdirSync(ours.dataDir).filter((n) => n.startsWith('before-restore-'));
    expect(aside).toHaveLength(1);
    const asideDir = join(ours.dataDir, aside[0]!);
    expect(done.out).toContain(`Kept aside, nothing deleted: ${asideDir}/`);
    // The replaced database, whole, and its job's file: moved, not overwritten.
    expect(readFileSync(join(asideDir, 'skein.db'))).toEqual(oursDb);
    expect(readFileSync(join(asideDir, 'skein.db.exports', name))).toEqual(oursFile);
    expect(readFileSync(join(ours.dataDir, 'exports', name))).toEqual(readFileSync(join(theirs.dataDir, 'exports', name)));
    expect(existsSync(join(ours.dataDir, 'exports', 'notes-by-hand.txt'))).toBe(true);
    const restored = new Database(join(ours.dataDir, 'skein.db'), { readonly: true });
    try {
      expect(restored.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(30 + 2 + 2 + 3 + 1);
    } finally {
      restored.close();
    }
    // And back: the kept database is itself a backup, its moved files beside it.
    const back = await runCli('restore', join(asideDir, 'skein.db'), '--force', '--data-dir', ours.dataDir);
    expect(back.code).toBe(0);
    expect(readFileSync(join(ours.dataDir, 'exports', name))).toEqual(oursFile);
  });

  it('refuses a missing file, a folder, a file that is not SQLite, a truncated copy, another program\'s or a newer Skein\'s database: one line, exit 1, nothing changed', async () => {
    const { dataDir } = await dataDirWithJobs(5, ['csv']);
    const dir = tempDir();
    const good = join(dir, 'good.db');
    expect((await runCli('backup', '--to', good, '--data-dir', dataDir)).code).toBe(0);
    const bytes = readFileSync(good);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'id,text\n1,hello\n');
    const truncated = join(dir, 'truncated.db');
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const pageCut = join(dir, 'page-cut.db');
    writeFileSync(pageCut, bytes.subarray(0, 4096 * 3));
    const other = join(dir, 'other.db');
    const o = new Database(other);
    o.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    o.close();
    const newer = join(dir, 'newer.db');
    writeFileSync(newer, bytes);
    const n = new Database(newer);
    n.prepare("INSERT INTO schema_migrations (id, name, applied_at_ms) VALUES (999, '999_from_the_future', 0)").run();
    n.close();

    const before = snapshotOf(dataDir);
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.db'), /missing\.db does not exist\./],
      [dir, /is a folder, not a backup file/],
      [text, /notes\.txt is not a SQLite database/],
      [truncated, /truncated\.db is truncated: it holds \d+ bytes, its header says \d+/],
      [pageCut, /page-cut\.db is truncated/],
      [other, /other\.db is a SQLite database but not Skein's \(it has no schema_migrations table\)\./],
      [newer, /newer\.db cannot be restored by this version of Skein: The database has migration 999 \(999_from_the_future\)/],
    ];
    for (const [file, message] of cases) {
      const r = await runCli('restore', file, '--force', '--data-dir', dataDir);
      expect(r.code, file).toBe(1);
      oneLine(r.err);
      expect(r.err, file).toMatch(message);
      expect(snapshotOf(dataDir), file).toEqual(before);
    }

    // backup: an existing file is not replaced without --force; a folder is not a file name.
    const exists = await runCli('backup', '--to', good, '--data-dir', dataDir);
    expect(exists.code).toBe(1);
    expect(exists.err).toBe(`skein backup: ${good} exists: add --force to replace it.\n`);
    expect(readFileSync(good)).toEqual(bytes);
    const folder = await runCli('backup', '--to', dir, '--data-dir', dataDir);
    expect(folder.code).toBe(1);
    oneLine(folder.err);
    expect(folder.err).toContain(`${dir} is a folder: name the backup file`);
    const nowhere = await runCli('backup', '--to', join(dir, 'no', 'such', 'folder.db'), '--data-dir', dataDir);
    expect(nowhere.code).toBe(1);
    expect(nowhere.err).toBe(`skein backup: the folder ${join(dir, 'no', 'such')} does not exist.\n`);
    expect(readdirSync(dir).sort()).toEqual(['good.db', 'newer.db', 'notes.txt', 'other.db', 'page-cut.db', 'truncated.db']);
    expect(snapshotOf(dataDir)).toEqual(before);

    // A fresh data dir that a refused restore would have created is not left behind.
    const fresh = join(tempDir(), 'never-made');
    expect((await runCli('restore', other, '--data-dir', fresh)).code).toBe(1);
    expect(existsSync(fresh)).toBe(false);
  });

  // root may write anywhere: as root, the built skein runs as nobody (65534), owning what it must.
  it.skipIf(process.platform === 'win32')('refuses a folder it may not write in: one line, exit 1, nothing changed', async () => {
    const { dataDir } = await dataDirWithJobs(5, ['csv']);
    const backupDir = tempDir();
    const good = join(backupDir, 'good.db');
    expect((await runCli('backup', '--to', good, '--data-dir', dataDir)).code).toBe(0);
    const readOnly = tempDir();
    const target = tempDir();
    createEngine({ dataDir: target }).close();
    const asRoot = process.getuid?.() === 0;
    const as = asRoot ? { uid: 65534, gid: 65534 } : {};
    if (asRoot) for (const path of [dataDir, backupDir, readOnly, target]) chownTree(path, 65534, 65534);
    chmodSync(readOnly, 0o500);
    chmodSync(target, 0o500);
    const skein = (...args: string[]) => spawnSync(process.execPath, [builtCli, ...args], { encoding: 'utf8', timeout: 60_000, ...as });
    const before = { data: snapshotOf(dataDir), target: snapshotOf(target) };

    const backup = skein('backup', '--to', join(readOnly, 'b.db'), '--data-dir', dataDir);
    expect(backup.stderr).toBe(`skein backup: cannot write in ${readOnly}: permission denied.\n`);
    expect(backup.status).toBe(1);
    expect(readdirSync(readOnly)).toEqual([]);

    const restore = skein('restore', good, '--force', '--data-dir', target);
    expect(restore.stderr).toBe(`skein restore: cannot write in the data dir ${target}: permission denied.\n`);
    expect(restore.status).toBe(1);
    expect({ data: snapshotOf(dataDir), target: snapshotOf(target) }).toEqual(before);
  });
});
