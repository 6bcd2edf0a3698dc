import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DeletedExport, ExportFile, ExportPreview, PartialFile, RemovedPartial, RetentionResult, RetentionState } from '../../../shared/contract';
import type { Engine } from '../engine';
import { fail } from '../errors';
import { getJob, type JobRow } from '../jobs';
import { exportsDir } from '../jobs/files';
import { datafileUrl } from '../jobs/status-body';
import { baseUrlOf } from './jobs';
import { previewFile } from './preview';
import { listPartials, removePartial } from '../jobs/partials';
import { deleteExportFile } from '../exports/delete-file';
import { deletedMessage, fileStateOf } from '../exports/file-state';
import { applyRetention, dueFiles, keptFiles } from '../exports/retention';
import { GB_BYTES, parseRetention, policyText, type RetentionPolicy, retentionPolicy, saveRetentionPolicy } from '../exports/retention-policy';
import { retentionLog } from '../exports/retention-timer';
import { boolArg, intArg, optionalIntArg, record, textArg } from './validate';

const FILE_ROWS = 1_000;
const MAX_PREVIEW_ROWS = 100;

/** A job's stored parameters; an unreadable row (never written by Skein) reads as none. */
function paramsOf(job: JobRow): Record<string, unknown> {
  try {
    const v = JSON.parse(job.params_json) as unknown;
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toFile(engine: Engine, job: JobRow, base: string): ExportFile | null {
  if (!job.result_file || !job.datafile_token) return null;
  const path = join(exportsDir(engine.dataDir), job.result_file);
  const params = paramsOf(job);
  return {
    job_id: job.id,
    job_kind: job.kind,
    job_name: typeof params.name === 'string' ? params.name : null,
    job_query: job.kind === 'search' && typeof params.query === 'string' ? params.query : null,
    job_tweet_id: job.kind === 'replies' && typeof params.tweet_id === 'string' ? params.tweet_id : null,
    job_user_id: job.kind === 'timeline' && typeof params.user_id === 'string' ? params.user_id : null,
    file_name: job.result_file,
    format: job.output_format,
    is_compressed: job.is_compressed === 1,
    rows: job.result_rows ?? 0,
    bytes: job.result_bytes ?? (existsSync(path) ? statSync(path).size : 0),
    finished_ms: job.finished_at_ms ?? job.updated_at_ms,
    datafile_url: datafileUrl(base, job),
    path,
    file_state: fileStateOf(engine.dataDir, job),
    deleted_ms: job.file_deleted_at_ms,
    deleted_by: job.file_deleted_by,
    rows_recorded: job.records_posts === 1,
  };
}

/**
 * Every data file of a successful job, newest first, deleted ones included (they say when and by
 * whom), except those of a deleted job (Jobs > Delete job): that job has left the app's lists.
 */
export function listExports(engine: Engine, apiUrl: string | null): ExportFile[] {
  const base = baseUrlOf(engine, apiUrl);
  const jobs = engine.db
    .prepare("SELECT * FROM jobs WHERE status = 'success' AND result_file IS NOT NULL AND deleted_at_ms IS NULL ORDER BY id DESC LIMIT ?")
    .all(FILE_ROWS) as JobRow[];
  return jobs.map((j) => toFile(engine, j, base)).filter((f): f is ExportFile => f !== null);
}

export function exportFileOf(engine: Engine, raw: unknown, apiUrl: string | null): ExportFile {
  const jobId = intArg(record(raw), 'job_id', 1, Number.MAX_SAFE_INTEGER);
  const job = getJob(engine.db, jobId);
  const file = job && job.status === 'success' ? toFile(engine, job, baseUrlOf(engine, apiUrl)) : null;
  if (!file) throw fail.notFound(`Job ${jobId} has no data file.`);
  if (file.file_state === 'deleted') throw fail.gone(deletedMessage(job!));
  if (!existsSync(file.path)) throw fail.notFound(`The data file of job ${jobId} is no longer in the exports folder (${file.file_name}).`);
  return file;
}

export async function previewExport(engine: Engine, raw: unknown, apiUrl: string | null): Promise<ExportPreview> {
  const file = exportFileOf(engine, raw, apiUrl);
  const rows = optionalIntArg(record(raw), 'rows', 1, MAX_PREVIEW_ROWS) ?? 20;
  const preview = await previewFile(file.path, file.format, file.is_compressed, rows);
  return { ...preview, total_rows: file.rows };
}

/** The unfinished files no running job uses (exports/.partial), largest first. */
export function listPartialFiles(engine: Engine): PartialFile[] {
  return listPartials(engine.db, engine.dataDir);
}

/** Removes one of them by name (only a listed name: never a path). */
export function removePartialFile(engine: Engine, raw: unknown): RemovedPartial {
  const name = textArg(record(raw), 'file_name', 255);
  return removePartial(engine.db, engine.dataDir, name, engine.clock.nowMs());
}

/** Deletes one finished job's data file (Exports > Delete); the job and its charges stay. */
export function deleteExport(engine: Engine, raw: unknown): DeletedExport {
  const jobId = intArg(record(raw), 'job_id', 1, Number.MAX_SAFE_INTEGER);
  return deleteExportFile(engine.db, engine.dataDir, jobId, 'user', engine.clock.nowMs());
}

function toAppPolicy(policy: RetentionPolicy): RetentionState['policy'] {
  if (policy.keep === 'size') return { keep: 'size', gb: policy.max_bytes / GB_BYTES };
  return policy.keep === 'days' ? { keep: 'days', days: policy.days } : { keep: 'all' };
}

export function retentionState(engine: Engine): RetentionState {
  const { updated_ms, ...policy } = retentionPolicy(engine.db);
  const kept = keptFiles(engine.db, engine.dataDir);
  return {
    policy: toAppPolicy(policy),
    policy_text: policyText(policy),
    updated_ms,
    files: kept.length,
    bytes: kept.reduce((sum, f) => sum + f.bytes, 0),
  };
}

/**
 * Saves the retention setting and applies it at once, as the server's next sweep would (a file
 * being downloaded is left for the next one). With dry_run, nothing is saved or deleted: the
 * answer lists what saving would delete now, so the app can ask first.
 */
export function setRetention(engine: Engine, raw: unknown, log?: (line: string) => void): RetentionResult {
  const args = record(raw);
  const dryRun = boolArg(args, 'dry_run', false);
  const policy = parseRetention(args);
  const nowMs = engine.clock.nowMs();
  if (dryRun) {
    const due = dueFiles(keptFiles(engine.db, engine.dataDir), policy, nowMs);
    const deleted = due.map((f) => ({ job_id: f.job_id, file_name: f.file_name, bytes: f.bytes, deleted_ms: nowMs, deleted_by: 'retention' as const }));
    return { state: retentionState(engine), deleted, skipped: [], dry_run: true };
  }
  saveRetentionPolicy(engine.db, policy, nowMs);
  const run = applyRetention(engine.db, engine.dataDir, nowMs, policy);
  for (const line of retentionLog(run, policyText(policy))) (log ?? console.log)(line);
  return { state: retentionState(engine), deleted: run.deleted, skipped: run.skipped, dry_run: false };
}
