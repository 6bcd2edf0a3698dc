import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { DISK_FULL_MESSAGE } from '../../src/main/engine/metering/group-commit';
import { assertInvariants } from '../../src/main/engine/ledger';
import { expectEachRowChargedOnce } from '../helpers/job-charges';
import { apiKey } from '../fixtures/api-corpus';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { builtCli, startSkein, type SkeinProcess } from '../helpers/skein-process';

// A real full disk (issue 13): the data dir on a small tmpfs, the built `skein serve` as a real
// process with its jobs in worker threads. A JSON export of 3,050 replies (3.9 MB) fills the last
// 1 MB: the worker's write fails with ENOSPC, and the record of that fails too (SQLITE_FULL: the
// WAL cannot grow). Before, that second failure escaped the worker's message handler and ended the
// process; the next start failed with "skein serve: database or disk is full" and nothing else.
// Needs root (or CAP_SYS_ADMIN) for mount; elsewhere the test is skipped and says so. The same
// faults injected without a mount: jobs-disk-full.test.ts.
// With the WAL checkpointer thread (the default, store/wal-checkpointer.ts) the WAL is emptied
// every 250 ms and reused in place, so the record of the fault usually finds room and the job is
// simply paused; without it (SKEIN_WAL_THREAD=0) the WAL cannot grow and the record fails. Both
// ends are tested: they must keep the server up and lose nothing.

const REPLIES = 3_000;
const MB = 1024 * 1024;

function mountProbe(): { ok: true } | { ok: false; why: string } {
  if (process.platform !== 'linux') return { ok: false, why: `tmpfs mounts are Linux-only (this is ${process.platform})` };
  const dir = mkdtempSync(join(tmpdir(), 'skein-tmpfs-probe-'));
  try {
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { encoding: 'utf8' });
    if (r.status !== 0) return { ok: false, why: `mount is not permitted here (${(r.stderr || r.error?.message || '').trim()})` };
    spawnSync('umount', [dir]);
    return { ok: true };
  } finally {
    rmdirSync(dir);
  }
}
// Servers stopped and mounts undone after each test, also when a test times out (its body goes on
// running, and a finally block in it would come too late).
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const probe = mountProbe();
if (!probe.ok) console.warn(`jobs-disk-full-tmpfs: skipped: ${probe.why}`);

/** A small tmpfs (16 MB) holding a data dir with a 3,050-reply conversation and a funded key. */
function smallDisk(sizeMb = 16): { mount: string; dataDir: string; key: string; expected: string[] } {
  const mount = mkdtempSync(join(tmpdir(), 'skein-tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', mount], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount: ${r.stderr}`);
  const dataDir = join(mount, 'data');
  const engine = createEngine({ dataDir });
  const convo = writeConversation(engine.db, REPLIES, 50);
  const key = apiKey(engine);
  engine.close();
  cleanups.push(() => {
    spawnSync('umount', [mount]);
    rmdirSync(mount);
  });
  return { mount, dataDir, key, expected: convo.expected.map(String) };
}

/** Leaves `bytes` free on the mount: a file of everything else. */
function fillTo(mount: string, bytes: number): void {
  const s = statfsSync(mount);
  writeFileSync(join(mount, 'filler'), Buffer.alloc(Math.max(0, s.bavail * s.bsize - bytes)));
}

/** The built `skein serve` on the disk's data dir, killed after the test. */
async function serve(disk: ReturnType<typeof smallDisk>, walThread = true): Promise<SkeinProcess> {
  const skein = await startSkein(disk.dataDir, ['--no-demo'], { SKEIN_WAL_THREAD: walThread ? '1' : '0' });
  cleanups.push(() => skein.stop('SIGKILL'));
  return skein;
}

async function get(skein: SkeinProcess, path: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(skein.url + path, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text } };
}

async function until<T>(what: () => Promise<T> | T, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await what();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const PAUSED_FOR_DISK = /^Retrying after: The disk is full: writing .* Free space; the job resumes from its last checkpoint\./;

/**
 * Starts `count` JSON reply jobs (two run at once, the runner's slots) with 1 MB left free, and
 * waits for the first one's fault: said on the server's output when it could not be recorded
 * (`recorded: false`, the WAL could not grow), or recorded as a pause.
 */
async function jobsThatFillTheDisk(disk: ReturnType<typeof smallDisk>, skein: SkeinProcess, count = 1, recorded = false): Promise<number[]> {
  fillTo(disk.mount, 1 * MB);
  const jobIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${skein.url}/social/tweets/${ROOT_ID}/comments/asyncJob`, {
      method: 'POST',
      headers: { authorization: `Bearer ${disk.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ output_format: 'json' }),
    });
    expect(res.status).toBe(200);
    jobIds.push(((await res.json()) as { job_id: number }).job_id);
  }
  if (recorded) {
    await until(() => get(skein, `/jobs/${jobIds[0]}`, disk.key), (r) => (r.body.status === 'pending' && PAUSED_FOR_DISK.test(String(r.body.message))) || skein.child.exitCode !== null);
  } else {
    await until(() => skein.output(), (out) => out.includes(`job ${jobIds[0]} stopped but its state could not be saved`) || skein.child.exitCode !== null);
  }
  expect(skein.child.exitCode, `skein serve ended:\n${skein.output()}`).toBeNull();
  return jobIds;
}

/** The data file holds every reply once, and the ledger one charge per row (ranges from row 0, no gap, no overlap). */
async function checkEnd(disk: ReturnType<typeof smallDisk>, skein: SkeinProcess, jobId: number, last = true): Promise<void> {
  const end = await until(() => get(skein, `/jobs/${jobId}`, disk.key), (r) => r.body.status === 'success' || r.body.status === 'error');
  expect(end.body.status, String(end.body.message)).toBe('success');
  const file = JSON.parse(await (await fetch((end.body.result as { datafile_url: string }).datafile_url)).text()) as { id_str: string }[];
  expect(file.map((t) => t.id_str)).toEqual(disk.expected);
  if (!last) return;
  await skein.stop();
  const engine = createEngine({ dataDir: disk.dataDir });
  try {
    expectEachRowChargedOnce(engine.db, jobId, disk.expected.length);
    assertInvariants(engine.db);
  } finally {
    engine.close();
  }
}

describe.skipIf(!probe.ok)(`a real full disk under skein serve (tmpfs)${probe.ok ? '' : `: skipped, ${probe.why}`}`, () => {
  it('without the WAL thread: keeps serving, says why once, and resumes the jobs from their checkpoints once space is free', { timeout: 300_000 }, async () => {
    const disk = smallDisk(32);
    const skein = await serve(disk, false);
    // Jobs 1 and 2 fill the disk; job 3 waits for a slot, and the claim that would start it is
    // refused too (SQLITE_FULL from the runner's own poll, where a throw also ended the server).
    const [first, ...others] = await jobsThatFillTheDisk(disk, skein, 3);
    const jobId = first!;
    await until(() => skein.output(), (out) => out.includes('Skein: cannot take a job from the queue (database or disk is full); trying again every poll.'));
    const said = skein.output().split('\n').filter((l) => l.includes(`job ${jobId} stopped`));
    expect(said).toHaveLength(1);
    const staged = join(disk.dataDir, 'exports', '.partial', `job${jobId}.json`);
    expect(said[0]).toContain('(database or disk is full)');
    expect(said[0]).toMatch(new RegExp(`The disk is full: writing ${staged.replace(/\./g, '\\.')} needs about \\d+ MB more \\(\\d+\\.\\d MB free on ${disk.mount}\\)`));
    // Still running, and answering: the app page, a job's status, and a script's read, which
    // cannot be charged while SQLite cannot write, and says so.
    expect(skein.child.exitCode).toBeNull();
    const login = await fetch(skein.loginUrl, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await fetch(`${skein.url}/`, { headers: { cookie } })).status).toBe(200);
    expect((await get(skein, `/jobs/${jobId}`, disk.key)).body).toMatchObject({ status: 'processing' });
    const read = await get(skein, `/social/tweets/${ROOT_ID}`, disk.key);
    expect(read).toEqual({ status: 500, body: { status: 'error', message: DISK_FULL_MESSAGE } });

    rmSync(join(disk.mount, 'filler'));
    // The pause is recorded on the runner's next poll; the job tries again a minute later.
    const paused = await until(() => get(skein, `/jobs/${jobId}`, disk.key), (r) => r.body.status === 'pending');
    expect(paused.body.message).toMatch(PAUSED_FOR_DISK);
    expect((await get(skein, `/social/tweets/${ROOT_ID}`, disk.key)).status).toBe(200);
    for (const other of others) await checkEnd(disk, skein, other, false);
    await checkEnd(disk, skein, jobId);
    expect(skein.output().split('\n').filter((l) => l.includes('cannot take a job'))).toHaveLength(1);
    expect(skein.output()).not.toMatch(/SqliteError|\n\s+at /);
  });

  it('with the WAL thread: the jobs are paused with the reason recorded, the server keeps serving, and they resume once space is free', { timeout: 300_000 }, async () => {
    const disk = smallDisk(32);
    const skein = await serve(disk, true);
    const jobIds = await jobsThatFillTheDisk(disk, skein, 3, true);
    // Every job's fault is recorded on the job itself, once: a script polling /jobs/<id> reads why.
    for (const id of jobIds) {
      const job = await until(() => get(skein, `/jobs/${id}`, disk.key), (r) => r.body.status === 'pending' && PAUSED_FOR_DISK.test(String(r.body.message)));
      expect(job.body.progress).toBeLessThan(disk.expected.length);
    }
    // A job whose fault came at a moment the WAL could not grow (the checkpointer had not yet
    // emptied it) first says "could not be saved" and is saved on a later poll: the loop above
    // waited for that. Which job, if any, is a race between the checkpointer and the filling disk
    // (1 run in 3 at load 2-4, with and without the pass's RESTART), so it is not asserted.
    expect(skein.child.exitCode).toBeNull();
    const login = await fetch(skein.loginUrl, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await fetch(`${skein.url}/`, { headers: { cookie } })).status).toBe(200);
    // A read is charged when the reused WAL has room, and refused in the spec's shape when not.
    const read = await get(skein, `/social/tweets/${ROOT_ID}`, disk.key);
    if (read.status !== 200) expect(read).toEqual({ status: 500, body: { status: 'error', message: DISK_FULL_MESSAGE } });

    rmSync(join(disk.mount, 'filler'));
    expect((await get(skein, `/social/tweets/${ROOT_ID}`, disk.key)).status).toBe(200);
    for (const id of jobIds.slice(1)) await checkEnd(disk, skein, id, false);
    await checkEnd(disk, skein, jobIds[0]!);
    expect(skein.output()).not.toMatch(/SqliteError|\n\s+at /);
  });

  it('a start on the full disk names the data dir, the free space and the files that fill it; deleting the unfinished one is safe', { timeout: 300_000 }, async () => {
    const disk = smallDisk();
    // Without the thread, so that SQLite itself cannot write when the process is killed.
    let skein = await serve(disk, false);
    const jobId = (await jobsThatFillTheDisk(disk, skein))[0]!;
    await skein.stop('SIGKILL');

    const r = spawnSync(process.execPath, [builtCli, 'serve', '--port', '0', '--no-demo', '--data-dir', disk.dataDir], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    const staged = join(disk.dataDir, 'exports', '.partial', `job${jobId}.json`);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('skein serve: cannot start. The disk holding the data dir is full (database or disk is full).');
    expect(lines[1]).toBe(`  Data dir: ${disk.dataDir}`);
    expect(lines[2]).toMatch(new RegExp(`^  Free: \\d+\\.\\d MB on ${disk.mount}$`));
    expect(lines[3]).toBe('  Largest files in the data dir:');
    // The unfinished export first, then the others, largest first.
    expect(lines[4]).toMatch(new RegExp(`^\\s+\\d+\\.\\d MB  ${staged.replace(/\./g, '\\.')}  \\(a job's unfinished export: deleting it is safe`));
    expect(lines[5]).toMatch(/^\s+\d+\.\d MB {2}.*\/skein\.db$/);
    expect(lines.at(-1)).toBe(`Free space on ${disk.mount} and start Skein again.`);
    expect(r.stderr).not.toMatch(/SqliteError|\n\s+at /);

    // Deleting the unfinished file by hand, as the report says, is safe: the job was taken back
    // from the killed process and collects again from row 0, paying no row twice.
    rmSync(staged);
    rmSync(join(disk.mount, 'filler'));
    skein = await serve(disk);
    await checkEnd(disk, skein, jobId);
    expect(readdirSync(join(disk.dataDir, 'exports', '.partial'))).toEqual([]);
  });
});
