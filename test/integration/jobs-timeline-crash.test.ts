import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { assertInvariants, holdsOfJob } from '../../src/main/engine/ledger';
import { COLUMNS } from '../../src/main/engine/jobs/writers/columns';
import { tempDir } from '../helpers/temp';
import { expectEachRowChargedOnce } from '../helpers/job-charges';
import { startSkein } from '../helpers/skein-process';
import { jobStatus, startJob, type JobStatus } from '../helpers/upstream-jobs';
import { apiKey } from '../fixtures/api-corpus';
import { parseCsv } from '../fixtures/data-files';
import { TIMELINE_USER, writeTimeline } from '../fixtures/timeline-corpus';

// kill -9 of the built server in the middle of a timeline job (issue 15: "as a job, so it
// resumes"): the next start resumes it from its last committed batch, on the keyset of the post
// ids. The file holds every post of the timeline exactly once, newest first, and the ledger holds
// exactly one charge per row (the charge ids cover rows 0..n-1 without a gap or an overlap).

const POSTS = 30_000;

describe('a timeline job survives kill -9 of the server', () => {
  // Two server starts and a 30,000-post timeline: minutes on a loaded 2-core machine, not seconds.
  it('resumes after a restart with no row written or charged twice', { timeout: 300_000 }, async () => {
    const dataDir = tempDir();
    const setup = createEngine({ dataDir });
    const timeline = writeTimeline(setup.db, POSTS);
    const key = apiKey(setup);
    setup.close();

    let skein = await startSkein(dataDir);
    let jobId: number;
    try {
      jobId = await startJob(skein.url, key, `/social/user/${TIMELINE_USER}/tweets-and-replies/asyncJob`, { output_format: 'csv' });
      // Kill once a few batches are committed and the job is still running.
      let seen: JobStatus;
      for (;;) {
        seen = await jobStatus(skein.url, key, jobId);
        if (seen.status !== 'pending' && seen.status !== 'processing') break;
        if (seen.progress >= 2000) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(seen.status, 'the job ended before it could be killed: raise POSTS').toBe('processing');
      expect(seen.progress).toBeLessThan(timeline.all.length);
      await skein.stop('SIGKILL');
    } finally {
      await skein.stop('SIGKILL');
    }

    skein = await startSkein(dataDir);
    try {
      let final: JobStatus;
      for (;;) {
        final = await jobStatus(skein.url, key, jobId);
        if (final.status === 'success' || final.status === 'error') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(final.status, final.message).toBe('success');
      const text = await (await fetch(final.result!.datafile_url)).text();
      const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
      expect(header).toEqual(COLUMNS.map((c) => c.name));
      const ids = rows.map((r) => r[0]);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(timeline.all.map(String));
    } finally {
      await skein.stop('SIGTERM');
    }

    const after = createEngine({ dataDir });
    try {
      const [hold] = holdsOfJob(after.db, jobId);
      expect(hold).toMatchObject({ posted: timeline.all.length, open: false });
      expectEachRowChargedOnce(after.db, jobId, timeline.all.length);
      assertInvariants(after.db);
    } finally {
      after.close();
    }
  });
});
