import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { deleteExportFile } from '../../src/main/engine/exports/delete-file';
import { parseRepliesJob, parseSearchJob } from '../../src/main/engine/jobs';
import { stagedPath } from '../../src/main/engine/jobs/files';
import { getJob } from '../../src/main/engine/jobs/job-row';
import { cancelJob } from '../../src/main/engine/jobs/queue/cancel';
import { claimNextJob } from '../../src/main/engine/jobs/queue/claim';
import { createJob } from '../../src/main/engine/jobs/queue/create';
import { recoverStaleLocks, runnerOwner } from '../../src/main/engine/jobs/queue/recover';
import { runJob, type RunContext } from '../../src/main/engine/jobs/run-job';
import { createKey } from '../../src/main/engine/keys';
import { openDb } from '../../src/main/engine/store/db';
import { migrate } from '../../src/main/engine/store/migrate';
import { migrations } from '../../src/main/engine/store/migrations';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';
import { parseCsv } from '../fixtures/data-files';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// job_posts (migration 066): the posts a job wrote, recorded in the same transaction as each
// batch's checkpoint, so the set is exactly the rows of its file after a stop, a resume, a restart
// from row 0; it names the set an overview describes ('overview.get' with job_id).

function setup(kind: 'replies' | 'search' = 'replies') {
  const engine = testEngine();
  const convo = writeConversation(engine.db, 23, 5);
  const { user } = createKey(engine, 'analyst');
  const parsed = kind === 'replies' ? parseRepliesJob(engine.db, String(ROOT_ID), { output_format: 'csv', csv_dialect: 'plain' }) : parseSearchJob({ query: 'from:user1', output_format: 'csv', csv_dialect: 'plain', max_count: '1000' });
  const jobId = createJob(engine.db, { userId: user.id, kind, params: parsed.params, output: parsed.output, maxRows: parsed.maxRows, nowMs: engine.clock.nowMs() });
  const ctx = (workerId: string, extra: Partial<RunContext> = {}): RunContext => ({ db: engine.db, dataDir: engine.dataDir, clock: engine.clock, ids: engine.ids, workerId, batchRows: 4, ...extra });
  const h = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null }).handlers;
  return { engine, convo, jobId, ctx, h };
}

type Setup = ReturnType<typeof setup>;

const recorded = ({ engine }: Setup, jobId: number): string[] =>
  (engine.db.prepare('SELECT post_id FROM job_posts WHERE job_id = ? ORDER BY post_id DESC').safeIntegers(true).pluck().all(jobId) as bigint[]).map(String);

function idsInFile({ engine }: Setup, jobId: number): string[] {
  const job = getJob(engine.db, jobId)!;
  return parseCsv(readFileSync(join(engine.dataDir, 'exports', job.result_file!), 'utf8')).slice(1).map((r) => r[0]!);
}

/** Runs the job for `batches` committed batches, then stops as a killed process would (the lock left held). */
async function runThenStop(s: Setup, name: string, batches: number): Promise<void> {
  const w = `${runnerOwner(name)}:0`;
  let n = 0;
  const claimed = claimNextJob(s.engine.db, w, s.engine.clock.nowMs())!;
  expect(await runJob(s.ctx(w, { between: async () => void n++, stopRequested: () => n >= batches }), claimed)).toBe('stopped');
}

async function resume(s: Setup, name: string): Promise<string> {
  recoverStaleLocks(s.engine.db, runnerOwner(name), s.engine.clock.nowMs(), 600_000);
  const w = `${runnerOwner(name)}:0`;
  return runJob(s.ctx(w), claimNextJob(s.engine.db, w, s.engine.clock.nowMs())!);
}

describe('job_posts', () => {
  it('holds exactly the committed rows after a stop, and exactly the file\'s rows after the resume', async () => {
    const s = setup();
    await runThenStop(s, 'first', 2);
    // Two batches of 4 committed: those 8 posts, newest first, and nothing of a batch in flight.
    expect(recorded(s, s.jobId)).toEqual(s.convo.expected.slice(0, 8).map(String));
    // A batch written but never committed: the process died between the write and the commit.
    appendFileSync(stagedPath(s.engine.dataDir, getJob(s.engine.db, s.jobId)!), '9999,garbage\r\n');
    expect(await resume(s, 'second')).toBe('success');
    const file = idsInFile(s, s.jobId);
    expect(file).toEqual(s.convo.expected.map(String));
    expect(recorded(s, s.jobId)).toEqual(file);
    expect(getJob(s.engine.db, s.jobId)!.result_rows).toBe(recorded(s, s.jobId).length);
  });

  it('is recorded again from row 0 when the staged file is gone, with nothing left of the first walk', async () => {
    const s = setup();
    await runThenStop(s, 'first', 2);
    rmSync(stagedPath(s.engine.dataDir, getJob(s.engine.db, s.jobId)!));
    // A post the first walk wrote is deleted from the corpus meanwhile: the new file lacks it, so must the set.
    const gone = s.convo.expected[2]!;
    expect(recorded(s, s.jobId)).toContain(String(gone));
    s.engine.db.prepare('DELETE FROM posts WHERE id = ?').run(gone);
    expect(await resume(s, 'second')).toBe('success');
    const file = idsInFile(s, s.jobId);
    expect(file).not.toContain(String(gone));
    expect(recorded(s, s.jobId)).toEqual(file);
  });

  it('goes when the job is cancelled, and stays when its file is deleted', async () => {
    const s = setup();
    await runThenStop(s, 'first', 1);
    expect(recorded(s, s.jobId)).toHaveLength(4);
    cancelJob(s.engine.db, s.jobId, s.engine.clock.nowMs());
    expect(await resume(s, 'second')).toBe('error');
    expect(recorded(s, s.jobId)).toEqual([]);
    await expect(s.h['overview.get']({ job_id: s.jobId })).rejects.toThrow(/was cancelled and wrote no file/);

    const t = setup('search');
    expect(await resume(t, 'only')).toBe('success');
    const file = idsInFile(t, t.jobId);
    expect(file.length).toBeGreaterThan(4);
    deleteExportFile(t.engine.db, t.engine.dataDir, t.jobId, 'user', t.engine.clock.nowMs());
    expect(recorded(t, t.jobId)).toEqual(file);
    expect((await t.h['overview.get']({ job_id: t.jobId })).posts).toBe(file.length);
  });
});

describe("overview.get of a job's rows", () => {
  it('counts exactly the rows of the file, and names the search a top-list click runs', async () => {
    const s = setup();
    expect(await resume(s, 'only')).toBe('success');
    const file = idsInFile(s, s.jobId);
    const o = await s.h['overview.get']({ job_id: s.jobId, top: 20 });
    // Counted here from the rows themselves: every row is a reply; authors and hashtags one post at a time.
    const post = s.engine.db.prepare('SELECT user_id FROM posts WHERE id = ?').safeIntegers(true).pluck();
    const tags = s.engine.db.prepare('SELECT tag FROM post_hashtags WHERE post_id = ?').pluck();
    const authors = new Set(file.map((id) => String(post.get(BigInt(id)))));
    const tagCounts = new Map<string, number>();
    for (const id of file) for (const t of tags.all(BigInt(id)) as string[]) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
    expect(o.posts).toBe(file.length);
    expect(o.replies).toBe(file.length);
    expect(o.unique_authors).toBe(authors.size);
    expect(o.hashtags).toEqual([...tagCounts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)));
    expect(o.scope).toEqual({ job_id: s.jobId, search_query: `conversation_id:${ROOT_ID}` });
    // The level-3 replies are in the conversation but not in the job's file: not counted.
    expect(s.convo.level3.length).toBeGreaterThan(0);
    expect(o.posts).toBe(s.convo.level1.length + s.convo.level2.length);

    const t = setup('search');
    expect(await resume(t, 'only')).toBe('success');
    const searched = await t.h['overview.get']({ job_id: t.jobId });
    expect(searched.scope).toEqual({ job_id: t.jobId, search_query: 'from:user1' });
    expect(searched.posts).toBeGreaterThan(4);
    expect(searched.posts).toBe(idsInFile(t, t.jobId).length);
  });

  it('refuses a job that has not finished, one unknown, and two scopes at once, each saying why', async () => {
    const s = setup();
    await expect(s.h['overview.get']({ job_id: s.jobId })).rejects.toThrow(/has not finished yet/);
    await expect(s.h['overview.get']({ job_id: 999 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.h['overview.get']({ job_id: s.jobId, query: 'x' })).rejects.toThrow(/give exactly one of query, user_id and job_id/);
    await expect(s.h['overview.get']({ job_id: 'x' as unknown as number })).rejects.toMatchObject({ code: 'invalid' });
    const listed = await s.h['jobs.list']();
    expect(listed.find((j) => j.job_id === s.jobId)!.rows_recorded).toBe(true);
  });
});

describe('migration 066 on jobs created before it', () => {
  it('marks the jobs that wrote rows as not recorded, and says plainly that they have no overview', async () => {
    const dir = tempDir();
    const db = openDb(join(dir, 'skein.db'));
    migrate(db, migrations.filter((m) => m.id < 66));
    db.prepare(`INSERT INTO api_users (id, name, created_at_ms) VALUES (50, 'old', 0)`).run();
    const job = db.prepare(`INSERT INTO jobs (user_id, kind, params_json, output_format, status, run_at_ms, checkpoint_rows, created_at_ms, updated_at_ms, finished_at_ms, result_file, datafile_token, result_rows)
      VALUES (50, 'search', '{"query":"x"}', 'csv', ?, 0, ?, 0, 0, ?, ?, ?, ?)`);
    const done = Number(job.run('success', 3, 1, 'old.csv', 'tok', 3).lastInsertRowid);
    const waiting = Number(job.run('pending', 0, null, null, null, null).lastInsertRowid);
    const halfway = Number(job.run('pending', 2, null, null, null, null).lastInsertRowid);
    expect(migrate(db, migrations.filter((m) => m.id <= 66)).applied).toEqual([66]);
    const flag = (id: number) => db.prepare('SELECT records_posts FROM jobs WHERE id = ?').pluck().get(id);
    expect([flag(done), flag(waiting), flag(halfway)]).toEqual([0, 1, 0]);
    db.close();

    const engine = testEngine({ dataDir: dir });
    const h = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => null }).handlers;
    await expect(h['overview.get']({ job_id: done })).rejects.toThrow(`Job ${done} ran before Skein recorded which posts a job writes, so its rows have no overview.`);
    expect((await h['jobs.get']({ job_id: done })).rows_recorded).toBe(false);
  });
});
