import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { assertInvariants, holdsOfJob } from '../../src/main/engine/ledger';
import { COLUMNS } from '../../src/main/engine/jobs/writers/columns';
import { tempDir } from '../helpers/temp';
import { expectEachRowChargedOnce } from '../helpers/job-charges';
import { startSkein, type SkeinProcess } from '../helpers/skein-process';
import { apiKey } from '../fixtures/api-corpus';
import { parseCsv } from '../fixtures/data-files';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// kill -9 of the built server in the middle of a large job: the next start resumes it from its
// last committed batch. The data file holds every expected row exactly once, and the ledger holds
// exactly one charge per row (the charge ids cover rows 0..n-1 without a gap or an overlap), and
// job_posts (migration 066) records exactly the posts of the file: none of the killed batch.

const REPLIES = 30_000;

interface Status {
  status: string;
  progress: number;
  progress_total: number;
  result?: { datafile_url: string; rows: number };
}

async function status(skein: SkeinProcess, key: string, jobId: number): Promise<Status> {
  const res = await fetch(`${skein.url}/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } });
  return (await res.json()) as Status;
}

describe('a job survives kill -9 of the server', () => {
  // Two server starts and a 30,000-row corpus: minutes on a loaded 2-core machine, not seconds.
  it('resumes after a restart with no row written or charged twice', { timeout: 300_000 }, async () => {
    const dataDir = tempDir();
    const setup = createEngine({ dataDir });
    const convo = writeConversation(setup.db, REPLIES, 50);
    const key = apiKey(setup);
    setup.close();

    let skein = await startSkein(dataDir);
    let jobId: number;
    let fileIds: string[] = [];
    try {
      const res = await fetch(`${skein.url}/social/tweets/${ROOT_ID}/comments/asyncJob`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ output_format: 'csv' }),
      });
      expect(res.status).toBe(200);
      jobId = ((await res.json()) as { job_id: number }).job_id;
      // Kill once a few batches are committed and the job is still running.
      let seen: Status;
      for (;;) {
        seen = await status(skein, key, jobId);
        if (seen.status !== 'pending' && seen.status !== 'processing') break;
        if (seen.progress >= 2000) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(seen.status, 'the job ended before it could be killed: raise REPLIES').toBe('processing');
      expect(seen.progress).toBeLessThan(convo.expected.length);
      await skein.stop('SIGKILL');
    } finally {
      await skein.stop('SIGKILL');
    }

    skein = await startSkein(dataDir);
    try {
      let final: Status;
      for (;;) {
        final = await status(skein, key, jobId);
        if (final.status === 'success' || final.status === 'error') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(final.status).toBe('success');
      const text = await (await fetch(final.result!.datafile_url)).text();
      const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
      expect(header).toEqual(COLUMNS.map((c) => c.name));
      const ids = rows.map((r) => r[0]);
      expect(ids.length).toBe(convo.expected.length);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(convo.expected.map(String));
      fileIds = ids as string[];
    } finally {
      await skein.stop('SIGTERM');
    }

    const after = createEngine({ dataDir });
    try {
      const [hold] = holdsOfJob(after.db, jobId);
      expect(hold).toMatchObject({ posted: convo.expected.length, open: false });
      expectEachRowChargedOnce(after.db, jobId, convo.expected.length);
      const recorded = after.db.prepare('SELECT post_id FROM job_posts WHERE job_id = ? ORDER BY post_id DESC').safeIntegers(true).pluck().all(jobId) as bigint[];
      expect(recorded.map(String)).toEqual(fileIds);
      const attempts = (after.db.prepare('SELECT attempts FROM jobs WHERE id = ?').get(jobId) as { attempts: number }).attempts;
      // The killed attempt had committed batches, so recovery gave it back (recover.ts): the
      // attempt that finished is the only one counted.
      expect(attempts).toBe(1);
      assertInvariants(after.db);
    } finally {
      after.close();
    }
  });
});
