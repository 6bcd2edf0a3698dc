import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { setUpstreamConfig } from '../../src/main/engine/upstream';
import { startSkein, type SkeinProcess } from '../helpers/skein-process';
import { tempDir } from '../helpers/temp';
import { ROOT_ID } from '../fixtures/jobs-corpus';
import { chargedBy, csvRows, fundedKey, jobEnd, jobStatus, startJob, upstreamConversation } from '../helpers/upstream-jobs';

// kill -9 of Skein B ten times while its search job walks upstream A: one complete file, no
// duplicate, and A charged each page once (B sends each page with an Idempotency-Key, so a page
// whose answer was on its way when B died is not charged again when B asks for it after its restart).

const REPLIES = 5_000;
const KILLS = 10;

describe('a job through an upstream survives kill -9 of the downstream Skein', () => {
  it('ten kills during the walk: one complete file, no duplicates, each page paid once', { timeout: 600_000 }, async () => {
    const { a, aServer, aKey, aLocal } = await upstreamConversation(REPLIES, 50);
    const body = { query: `conversation_id:${ROOT_ID}`, max_count: REPLIES + 200, output_format: 'csv' };
    const reference = await jobEnd(aServer.url, aLocal.key, await startJob(aServer.url, aLocal.key, '/social/search/asyncJob', body));

    const dataDir = tempDir();
    const setup = createEngine({ dataDir });
    setUpstreamConfig(setup.db, { url: aServer.url, profile: 'spec', perMinute: 100_000 }, Date.now());
    const bKey = fundedKey(setup, 'analyst');
    setup.close();
    const env = { SKEIN_UPSTREAM_KEY: aKey.key };

    let b: SkeinProcess = await startSkein(dataDir, ['--no-demo'], env);
    let killed = 0;
    try {
      const jobId = await startJob(b.url, bKey.key, '/social/search/asyncJob', body);
      let lastPages = 0;
      // A fixed sequence of waits (in pages) so every run kills at comparable points, mid-request or not.
      const waits = [1, 3, 2, 5, 1, 4, 2, 6, 3, 2];
      while (killed < KILLS) {
        const s = await jobStatus(b.url, bKey.key, jobId);
        expect(s.status, s.message).not.toBe('error');
        const pages = s.upstream?.pages ?? 0;
        if (s.upstream?.done) break;
        if (pages - lastPages >= waits[killed]!) {
          await b.stop('SIGKILL');
          killed++;
          lastPages = pages;
          b = await startSkein(dataDir, ['--no-demo'], env);
        }
      }
      expect(killed, 'the walk ended before ten kills: raise REPLIES').toBe(KILLS);
      const end = await jobEnd(b.url, bKey.key, jobId);
      expect(end.status, end.message).toBe('success');
      const rows = await csvRows(end);
      expect(rows).toEqual(await csvRows(reference));
      expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);

      await b.stop('SIGTERM');
      const check = createEngine({ dataDir });
      try {
        const book = check.db.prepare('SELECT total(items) AS items, count(*) AS lines FROM upstream_spend WHERE job_id = ?').get(jobId) as { items: number; lines: number };
        const walk = check.db.prepare('SELECT pages, items FROM job_upstream WHERE job_id = ?').get(jobId) as { pages: number; items: number };
        const charged = chargedBy(a, aKey.userId);
        expect(book.lines).toBe(walk.pages);
        expect(charged.idemLines).toBe(walk.pages);
        expect(charged.idem).toBe(book.items);
        // and nothing else: no page was charged twice under another id
        expect(charged.all).toBe(book.items);
        // Each item once: the items A returned to the job's pages are the rows of the file.
        expect(walk.items).toBe(rows.length - 1);
      } finally {
        check.close();
      }
    } finally {
      await b.stop('SIGKILL');
    }
  });
});
