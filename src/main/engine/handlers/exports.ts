import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportFile, ExportPreview, PartialFile, RemovedPartial } from '../../../shared/contract';
import type { Engine } from '../engine';
import { fail } from '../errors';
import { getJob, type JobRow } from '../jobs';
import { exportsDir } from '../jobs/files';
import { datafileUrl } from '../jobs/status-body';
import { baseUrlOf } from './jobs';
import { previewFile } from './preview';
import { listPartials, removePartial } from '../jobs/partials';
import { intArg, optionalIntArg, record, textArg } from './validate';

const FILE_ROWS = 1_000;
const MAX_PREVIEW_ROWS = 100;

function toFile(engine: Engine, job: JobRow, base: string): ExportFile | null {
  if (!job.result_file || !job.datafile_token) return null;
  const path = join(exportsDir(engine.dataDir), job.result_file);
  return {
    job_id: job.id,
    file_name: job.result_file,
    format: job.output_format,
    is_compressed: job.is_compressed === 1,
    rows: job.result_rows ?? 0,
    bytes: job.result_bytes ?? (existsSync(path) ? statSync(path).size : 0),
    finished_ms: job.finished_at_ms ?? job.updated_at_ms,
    datafile_url: datafileUrl(base, job),
    path,
  };
}

/** Every data file of a successful job, newest first. */
export function listExports(engine: Engine, apiUrl: string | null): ExportFile[] {
  const base = baseUrlOf(engine, apiUrl);
  const jobs = engine.db
    .prepare("SELECT * FROM jobs WHERE status = 'success' AND result_file IS NOT NULL ORDER BY id DESC LIMIT ?")
    .all(FILE_ROWS) as JobRow[];
  return jobs.map((j) => toFile(engine, j, base)).filter((f): f is ExportFile => f !== null);
}

export function exportFileOf(engine: Engine, raw: unknown, apiUrl: string | null): ExportFile {
  const jobId = intArg(record(raw), 'job_id', 1, Number.MAX_SAFE_INTEGER);
  const job = getJob(engine.db, jobId);
  const file = job && job.status === 'success' ? toFile(engine, job, baseUrlOf(engine, apiUrl)) : null;
  if (!file) throw fail.notFound(`Job ${jobId} has no data file.`);
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
