import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseRepliesJob } from '../../src/main/engine/jobs';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { MAX_ATTEMPTS } from '../../src/main/engine/jobs/limits';
import { claimNextJob } from '../../src/main/engine/jobs/queue/claim';
import { createJob } from '../../src/main/engine/jobs/queue/create';
import { recoverStaleLocks, runnerOwner } from '../../src/main/engine/jobs/queue/recover';
import { runJob } from '../../src/main/engine/jobs/run-job';
import { createKey } from '../../src/main/engine/keys';
import { assertInvariants, holdsOfJob } from '../../src/main/engine/ledger';
import { deliveriesOfJob, setWebhook } from '../../src/main/engine/webhooks';
import { testEngine } from '../helpers/engine';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// Issue 13: a job whose process dies on every attempt. Each claim counts an attempt; recovery
// sends the job back to pending while attempts are left and ends it in error after the last one,
// its credit hold voided like any failed job's. The holders are real processes killed with SIGKILL.

/** A worker id ("<host>:<pid>:<nonce>:<slot>", as runnerOwner makes) of a process killed with SIGKILL. */
async function killedWorker(nonce: string): Promise<string> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  const [host] = runnerOwner(nonce).split(':');
  return `${host}:${child.pid}:${nonce}:0`;
}

function setup() {
  const engine = testEngine();
  const convo = writeConversation(engine.db, 23, 5);
  const { user } = createKey(engine, 'analyst');
  const parsed = parseRepliesJob(engine.db, String(ROOT_ID), { output_format: 'csv' });
  const jobId = createJob(engine.db, { userId: user.id, kind: 'replies', params: parsed.params, output: parsed.output, maxRows: parsed.maxRows, nowMs: engine.clock.nowMs() });
  // The recovering runner: alive (this process), a different nonce from every dead holder.
  const recover = () => recoverStaleLocks(engine.db, runnerOwner('alive'), engine.clock.nowMs(), 600_000);
  return { engine, convo, userId: user.id, jobId, maxRows: parsed.maxRows, recover };
}

describe('a job whose process keeps dying ends after max_attempts (issue 13)', () => {
  it('goes back to pending while attempts are left, then ends in error with its hold voided', async () => {
    const { engine, userId, jobId, maxRows, recover } = setup();
    await setWebhook(engine, userId, 'http://127.0.0.1:9/hook');
    expect(getJob(engine.db, jobId)!.max_attempts).toBe(MAX_ATTEMPTS);

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const worker = await killedWorker(`dead${attempt}`);
      expect(claimNextJob(engine.db, worker, engine.clock.nowMs())!.attempts).toBe(attempt);
      expect(recover()).toEqual([jobId]);
      expect(getJob(engine.db, jobId)).toMatchObject({ status: 'pending', attempts: attempt, locked_by: null, locked_at_ms: null, finished_at_ms: null });
      expect(holdsOfJob(engine.db, jobId)[0]).toMatchObject({ open: true, posted: 0 });
    }

    // The fifth attempt commits one batch (4 rows charged) before its process dies: it made
    // progress, so the attempt is given back (a job killed while it works resumes however often).
    const worker = await killedWorker('deadprogress');
    const fifth = claimNextJob(engine.db, worker, engine.clock.nowMs())!;
    expect(fifth.attempts).toBe(MAX_ATTEMPTS);
    let batches = 0;
    const ctx = { db: engine.db, dataDir: engine.dataDir, clock: engine.clock, ids: engine.ids, workerId: worker, batchRows: 4, between: async () => void batches++, stopRequested: () => batches >= 1 };
    expect(await runJob(ctx, fifth)).toBe('stopped');
    expect(getJob(engine.db, jobId)).toMatchObject({ status: 'processing', locked_by: worker, attempt_progress: 1 });
    engine.clock.advance(1_000);
    expect(recover()).toEqual([jobId]);
    expect(getJob(engine.db, jobId)).toMatchObject({ status: 'pending', attempts: MAX_ATTEMPTS - 1 });

    // The next attempt, the last one, dies before committing anything: the job ends.
    const last = claimNextJob(engine.db, await killedWorker('deadlast'), engine.clock.nowMs())!;
    expect(last).toMatchObject({ attempts: MAX_ATTEMPTS, attempt_progress: 0 });
    engine.clock.advance(1_000);
    expect(recover()).toEqual([jobId]);
    const job = getJob(engine.db, jobId)!;
    expect(job).toMatchObject({
      status: 'error',
      attempts: MAX_ATTEMPTS,
      locked_by: null,
      locked_at_ms: null,
      finished_at_ms: engine.clock.nowMs(),
      last_error: `The process running this job stopped during attempt ${MAX_ATTEMPTS} of ${MAX_ATTEMPTS} before committing anything, as in every attempt that used one up; giving up. Retry the job to try again.`,
    });
    // The 4 rows written stay charged; the rest of the hold is voided, and the ledger balances.
    const [hold] = holdsOfJob(engine.db, jobId);
    expect(hold).toMatchObject({ open: false, posted: 4 });
    expect(maxRows).toBeGreaterThan(4);
    assertInvariants(engine.db);
    // Announced like any other end (spec 6).
    expect(deliveriesOfJob(engine.db, jobId)).toMatchObject([{ state: 'pending' }]);
    // Not claimable again: it stays ended until the user retries it.
    expect(claimNextJob(engine.db, `${runnerOwner('alive')}:0`, engine.clock.nowMs())).toBeUndefined();
    expect(recover()).toEqual([]);
  });

  it('a row already at max_attempts, held by a dead process, ends in error at the first recovery', async () => {
    const { engine, jobId, recover } = setup();
    const worker = await killedWorker('deadrow');
    claimNextJob(engine.db, worker, engine.clock.nowMs());
    // As seen after repeated crashes: attempts at (or past) the bound while processing.
    engine.db.prepare('UPDATE jobs SET attempts = max_attempts + 2 WHERE id = ?').run(jobId);
    expect(recover()).toEqual([jobId]);
    const job = getJob(engine.db, jobId)!;
    expect(job).toMatchObject({ status: 'error', locked_by: null });
    expect(job.last_error).toMatch(/^The process running this job stopped during attempt 7 of 5 before committing anything/);
    expect(holdsOfJob(engine.db, jobId)[0]).toMatchObject({ open: false, posted: 0 });
    assertInvariants(engine.db);
  });
});
