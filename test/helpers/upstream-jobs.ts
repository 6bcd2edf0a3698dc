import type { Engine } from '../../src/main/engine/engine';
import { createKey } from '../../src/main/engine/keys';
import { fund } from '../fixtures/api-corpus';
import { parseCsv } from '../fixtures/data-files';
import { testRunner } from '../fixtures/job-runner';
import { writeConversation } from '../fixtures/jobs-corpus';
import { testEngine } from './engine';
import { startServer } from './http';

// Jobs through an upstream, driven over real HTTP: start a job, wait for its end, read its file.

export interface JobStatus {
  status: string;
  progress: number;
  message?: string;
  upstream?: { pages: number; items: number; done: boolean };
  result?: { datafile_url: string; rows: number };
}

export async function startJob(url: string, key: string, path: string, body: Record<string, unknown>): Promise<number> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
  return (JSON.parse(text) as { job_id: number }).job_id;
}

export async function jobStatus(url: string, key: string, jobId: number): Promise<JobStatus> {
  const res = await fetch(`${url}/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } });
  return (await res.json()) as JobStatus;
}

/** Polls until the job ends (success or error); real time, bounded by the test's timeout. */
export async function jobEnd(url: string, key: string, jobId: number): Promise<JobStatus> {
  for (;;) {
    const s = await jobStatus(url, key, jobId);
    if (s.status === 'success' || s.status === 'error') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The rows of a finished CSV job (header first). */
export async function csvRows(status: JobStatus): Promise<string[][]> {
  if (!status.result) throw new Error(`the job has no file: ${JSON.stringify(status)}`);
  return parseCsv(await (await fetch(status.result.datafile_url)).text());
}

/** A funded local API key on an engine. */
export function fundedKey(engine: Engine, name: string): { key: string; userId: number } {
  const { key, user } = createKey(engine, name);
  fund(engine, user.id);
  return { key, userId: user.id };
}

/** What A's ledger charged a user: all posted charges, and those made under an Idempotency-Key. */
export function chargedBy(engine: Engine, userId: number): { all: number; idem: number; idemLines: number } {
  const row = engine.db
    .prepare(
      `SELECT total(t.amount) AS all_, total(CASE WHEN t.id LIKE 'idem:%' THEN t.amount END) AS idem, count(CASE WHEN t.id LIKE 'idem:%' THEN 1 END) AS lines
       FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.debit_account_id
       WHERE a.user_id = ? AND t.kind = 'posted'`,
    )
    .get(userId) as { all_: number; idem: number; lines: number };
  return { all: row.all_, idem: row.idem, idemLines: row.lines };
}

/**
 * Skein A, the upstream: a conversation of `replies` direct replies (`withChildren` of them with
 * replies of their own), served on loopback with its job runner, a funded key for Skein B and one
 * for the reference jobs run on A itself.
 */
export async function upstreamConversation(replies: number, withChildren: number) {
  const a = testEngine();
  writeConversation(a.db, replies, withChildren);
  const aServer = await startServer(a);
  const aKey = fundedKey(a, 'skein-b');
  const aLocal = fundedKey(a, 'reference');
  testRunner(a);
  return { a, aServer, aKey, aLocal };
}
