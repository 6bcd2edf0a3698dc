import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine/engine';
import { parseRepliesJob, submitJob } from '../../src/main/engine/jobs';
import { openDb } from '../../src/main/engine/store/db';
import { startWalCheckpointer, walThreadWanted, type WalCheckpointer } from '../../src/main/engine/store/wal-checkpointer';
import { afterPassive } from '../../src/main/engine/store/wal-policy';
import { apiKey, fund } from '../fixtures/api-corpus';
import { createKey } from '../../src/main/engine/keys';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// The background WAL checkpointer (issue 17): the connections that serve requests and run jobs
// never checkpoint, and the WAL stays bounded under a write load. Whether a connection
// checkpointed is read from the WAL index (the -shm file, https://www.sqlite.org/walformat.html):
// mxFrame (offset 16) is the WAL's last valid frame, nBackfill (offset 96) how many frames a
// checkpoint has copied into the database since the WAL last started over. No timings: every
// pass of the checkpointer the tests rely on is asked for and awaited.

const running: WalCheckpointer[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});

/** A checkpointer whose timer never fires during a test: only the passes a test asks for run. */
function manualCheckpointer(engine: Engine, limits: { boundBytes?: number; idleTruncateBytes?: number } = {}): WalCheckpointer {
  const wal = startWalCheckpointer(engine, { everyMs: 3_600_000, limits });
  running.push(wal);
  return wal;
}

function walIndex(engine: Engine): { mxFrame: number; nBackfill: number } {
  const buf = Buffer.alloc(100);
  const fd = openSync(`${engine.dbFile}-shm`, 'r');
  try {
    readSync(fd, buf, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  const le = endianness() === 'LE';
  const u32 = (at: number) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  return { mxFrame: u32(16), nBackfill: u32(96) };
}

const walFileBytes = (engine: Engine) => statSync(`${engine.dbFile}-wal`).size;

/** One transaction writing about `kib` KiB of new pages (a table of blobs, no index). */
function write(engine: Engine, kib: number): void {
  engine.db.exec('CREATE TABLE IF NOT EXISTS filler (b BLOB)');
  const ins = engine.db.prepare('INSERT INTO filler (b) VALUES (randomblob(1024))');
  engine.db.transaction(() => {
    for (let i = 0; i < kib; i++) ins.run();
  })();
}

describe('WAL checkpointer', () => {
  it('checkpoints instead of the connection that serves requests: metered requests after a 2,000-page WAL copy nothing', async () => {
    const engine = testEngine();
    const wal = manualCheckpointer(engine);
    expect(engine.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const server = await startServer(engine);
    writeConversation(engine.db, 5);
    const key = apiKey(engine);
    // Past SQLite's default autocheckpoint (1,000 pages): any later commit on this connection
    // would copy the WAL into the database before returning.
    write(engine, 8_000);
    const before = walIndex(engine);
    expect(before.mxFrame).toBeGreaterThan(2_000);
    for (let i = 0; i < 20; i++) {
      const res = await server.request(`/social/tweets/${ROOT_ID}`, { key });
      expect(res.status).toBe(200);
    }
    const after = walIndex(engine);
    expect(after.mxFrame).toBeGreaterThan(before.mxFrame); // the requests' charges were committed
    expect(after.nBackfill).toBe(0); // and none of those commits checkpointed

    const pass = await wal.pass();
    expect(pass.checkpointedFrames).toBe(pass.walFrames);
    expect(walIndex(engine).nBackfill).toBe(after.mxFrame);
  });

  it("leaves checkpoints to it in the job runner's worker threads too", async () => {
    const engine = testEngine();
    manualCheckpointer(engine);
    writeConversation(engine.db, 30);
    const userId = createKey(engine, 'tester').user.id;
    fund(engine, userId);
    write(engine, 8_000);
    const before = walIndex(engine);
    const runner = testRunner(engine, { batchRows: 5 });
    submitJob(engine, userId, 'replies', parseRepliesJob(engine.db, String(ROOT_ID), { output_format: 'csv' }));
    runner.poke();
    await runner.idle();
    expect((engine.db.prepare('SELECT status FROM jobs').pluck().get() as string)).toBe('success');
    const after = walIndex(engine);
    expect(after.mxFrame).toBeGreaterThan(before.mxFrame); // the job's batches were committed
    expect(after.nBackfill).toBe(0); // by a connection that did not checkpoint
  });

  it('keeps the WAL bounded under a steady write load', async () => {
    const engine = testEngine();
    const wal = manualCheckpointer(engine);
    let largestFrames = 0;
    // 16 MiB written in 64 transactions of 256 KiB, one pass after every fourth (the timer's
    // pass between writes): the WAL never holds more than about one pass's writes.
    for (let i = 0; i < 64; i++) {
      write(engine, 256);
      largestFrames = Math.max(largestFrames, walIndex(engine).mxFrame);
      if (i % 4 === 3) {
        const pass = await wal.pass();
        expect(pass.checkpointedFrames).toBe(pass.walFrames);
      }
    }
    const pageSize = engine.db.pragma('page_size', { simple: true }) as number;
    // Four transactions of 256 KiB rows (~2 MiB of pages: a 1 KiB row takes a third of a 4 KiB
    // page), against more than 16 MiB without the passes.
    expect(largestFrames * pageSize).toBeLessThan(3 * 1024 * 1024);
    expect(walFileBytes(engine)).toBeLessThan(3.5 * 1024 * 1024);
  });

  it('starts the WAL over after a pass even when commits landed while it copied (a steady write load)', async () => {
    const engine = testEngine();
    const wal = manualCheckpointer(engine);
    const sleep = new Int32Array(new SharedArrayBuffer(4));
    // Not timed, but a race: an attempt tells something only when a commit landed after the
    // PASSIVE began and none held the write lock when the RESTART asked for it. Up to 5 tries.
    for (let attempt = 0; attempt < 5; attempt++) {
      write(engine, 16_000); // ~20 MiB of pages: the pass's PASSIVE copy takes a while
      const passing = wal.pass();
      // Small commits every ~1 ms while the worker copies, as metered requests' charge groups
      // come; the PASSIVE copies only the frames that were there when it began. Sleeping (not
      // spinning) leaves a core to the worker; stops once the PASSIVE has copied (nBackfill set).
      for (let i = 0; i < 500 && walIndex(engine).nBackfill === 0; i++) {
        write(engine, 2);
        Atomics.wait(sleep, 0, 0, 1);
      }
      const written = walIndex(engine).mxFrame;
      const pass = await passing;
      if (written <= pass.walFrames || pass.restarted === 'busy') continue;
      expect(pass.restarted).toBe('yes');
      expect(walIndex(engine).nBackfill).toBe(written); // the late commits were copied too
      write(engine, 2);
      // The next writer started the WAL over: it rewrites the file's first frames instead of
      // appending past ~20 MiB (new file pages, zeroed and allocated by the kernel, each commit).
      expect(walIndex(engine).mxFrame).toBeLessThan(10);
      return;
    }
    expect.fail('no attempt had a commit land during the PASSIVE with the write lock free after it');
  });

  it('empties a WAL past its bound once the reader that pinned it is gone, and gives an idle WAL file back', async () => {
    const engine = testEngine();
    const wal = manualCheckpointer(engine, { boundBytes: 4 * 1024 * 1024, idleTruncateBytes: 512 * 1024 });
    write(engine, 64);
    // A reader holding a snapshot: frames written after it cannot be copied, nor the WAL restarted.
    const reader = openDb(engine.dbFile);
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM filler').get();
      for (let i = 0; i < 16; i++) write(engine, 256); // ~8 MiB of pages
      const pinned = await wal.pass();
      expect(pinned.checkpointedFrames).toBeLessThan(pinned.walFrames);
      expect(pinned.truncated).toBe('busy'); // past the bound, tried, and did not wait for the reader
      reader.exec('COMMIT');
    } finally {
      reader.close();
    }
    write(engine, 16); // a writer is busy (not idle), but the WAL is past its bound
    const emptied = await wal.pass();
    expect(emptied.truncated).toBe('yes');
    expect(walFileBytes(engine)).toBe(0);

    // A burst, then nothing: the next pass that sees no commit since the one before gives the file back.
    for (let i = 0; i < 3; i++) write(engine, 256); // ~1.6 MiB of pages
    const busy = await wal.pass();
    expect(busy.truncated).toBe('no'); // under the bound, and writes came since the last pass
    expect(walFileBytes(engine)).toBeGreaterThan(512 * 1024);
    const idle = await wal.pass();
    expect(idle.truncated).toBe('yes');
    expect(walFileBytes(engine)).toBe(0);
  });

  it('gives the engine connection its own checkpoints back when stopped', async () => {
    const engine = testEngine();
    const wal = startWalCheckpointer(engine, { everyMs: 3_600_000 });
    expect(engine.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await wal.stop();
    expect(engine.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await expect(wal.pass()).rejects.toThrow(/stopped/);
  });
});

describe('WAL policy', () => {
  const page = 4096;
  it('truncates past the bound whatever the load, waiting a little; an idle large file without waiting', () => {
    const limits = { boundBytes: 64 * 1024 * 1024, idleTruncateBytes: 4 * 1024 * 1024, boundWaitMs: 50 };
    expect(afterPassive({ walFrames: 20_000, checkpointedFrames: 5_000, pageSize: page, walFileBytes: 90e6, idle: false }, limits)).toEqual({ kind: 'truncate', waitMs: 50 });
    expect(afterPassive({ walFrames: 1_000, checkpointedFrames: 1_000, pageSize: page, walFileBytes: 90e6, idle: false }, limits)).toEqual({ kind: 'none' });
    expect(afterPassive({ walFrames: 1_000, checkpointedFrames: 1_000, pageSize: page, walFileBytes: 90e6, idle: true }, limits)).toEqual({ kind: 'truncate', waitMs: 0 });
    expect(afterPassive({ walFrames: 10, checkpointedFrames: 10, pageSize: page, walFileBytes: 1e6, idle: true }, limits)).toEqual({ kind: 'none' });
  });
});

describe('WAL thread default', () => {
  it.each([
    [{}, true],
    [{ SKEIN_WAL_THREAD: '1' }, true],
    [{ SKEIN_WAL_THREAD: '0' }, false],
  ] as const)('%o starts it: %s', (env, wanted) => {
    expect(walThreadWanted(env)).toBe(wanted);
  });
});
