import type { JobRow } from './job-row';
import { csvDialectOf, gexfSliceOf, type CsvDialect, type GexfSlice } from './params';

/**
 * The body of GET /jobs/<job_id> (spec 2.6 and 4.8), also the `data` of the job_finished webhook
 * (spec 6). Spec fields: job_id, status, result {is_compressed, datafile_url} once processed.
 * Extensions (docs/api.md): kind, progress and progress_total (rows), message on error (and on a
 * reply job's success short of its total: jobNote), times as ISO 8601, and
 * result.rows/bytes/output_format/file_name, result.csv_dialect for a CSV file,
 * result.gexf_dynamic for a time-sliced GEXF file, and
 * result.file_deleted_at/file_deleted_by once the file was deleted (migration 060).
 */
export interface JobStatusBody {
  job_id: number;
  status: JobRow['status'];
  kind: JobRow['kind'];
  progress: number;
  progress_total: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  message?: string;
  /** A job that walks the upstream: the pages and items stored so far, and whether the walk is over. */
  upstream?: { pages: number; items: number; done: boolean };
  result?: {
    is_compressed: boolean;
    datafile_url: string;
    output_format: JobRow['output_format'];
    /** A CSV file's dialect (issue 16): excel or plain. */
    csv_dialect?: CsvDialect;
    /** A time-sliced GEXF file's slices (issue 16): hour, day or week. */
    gexf_dynamic?: GexfSlice;
    file_name: string;
    rows: number;
    bytes: number;
    /** Set once the file was deleted (Exports > Delete, or the retention setting): its URL then answers 410. */
    file_deleted_at?: string;
    file_deleted_by?: 'user' | 'retention';
  };
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function datafileUrl(baseUrl: string, job: Pick<JobRow, 'datafile_token' | 'result_file'>): string {
  return `${baseUrl}/datafiles/${job.datafile_token}/${encodeURIComponent(job.result_file ?? '')}`;
}

/**
 * Why a reply or timeline job without max_count ended with fewer rows than its progress_total, or
 * null. That total is what the job expected (the post's reply_count, or the replies stored if
 * more; a user's statuses_count through an upstream), so "0 of 3" must say that the corpus holds
 * no more of them, not look like a job that lost rows.
 */
export function jobNote(job: JobRow): string | null {
  if (job.status !== 'success' || job.kind === 'search' || job.progress_total === null) return null;
  const rows = job.result_rows ?? job.progress;
  if (rows >= job.progress_total) return null;
  let params: { max_count?: unknown; since_id?: unknown } = {};
  try {
    params = JSON.parse(job.params_json) as typeof params;
  } catch {
    params = {};
  }
  if (params.max_count !== undefined) return null; // a cap, not an expectation
  if (job.kind === 'timeline') {
    // Only through an upstream does a timeline job hold more than the corpus held: statuses_count.
    const got = rows === 0 ? 'No posts were collected' : `Collected ${rows} ${rows === 1 ? 'post' : 'posts'}`;
    return (
      `${got}: ${job.progress_total} were expected (the user's statuses_count, or the posts stored if more) and neither ` +
      "the upstream's timeline nor the corpus holds more. statuses_count also counts posts a timeline does not return " +
      '(deleted posts, replies on the posts-only timeline, posts past how far back the platform pages).'
    );
  }
  const since = params.since_id === undefined ? '' : ' newer than since_id';
  const got = rows === 0 ? 'No replies were collected' : `Collected ${rows} ${rows === 1 ? 'reply' : 'replies'}`;
  return (
    `${got}: ${job.progress_total} were expected (the post's reply_count, or the replies stored if more) and the corpus ` +
    `holds no more direct or second-level replies to this post${since} from public accounts. reply_count also counts ` +
    'replies a collection cannot return (protected accounts, deleted posts, replies never imported): spec 1, known limitation.'
  );
}

export function jobStatusBody(job: JobRow, baseUrl: string, walk?: { pages: number; items: number; done: number }): JobStatusBody {
  const body: JobStatusBody = {
    job_id: job.id,
    status: job.status,
    kind: job.kind,
    progress: job.progress,
    progress_total: job.progress_total,
    created_at: iso(job.created_at_ms)!,
    started_at: iso(job.started_at_ms),
    finished_at: iso(job.finished_at_ms),
  };
  if (walk) body.upstream = { pages: walk.pages, items: walk.items, done: walk.done === 1 };
  if (job.status === 'error') body.message = job.last_error ?? 'The job failed.';
  else if (job.status === 'pending' && job.last_error) body.message = `Retrying after: ${job.last_error}`;
  const note = jobNote(job);
  if (note !== null) body.message = note;
  if (job.status === 'success' && job.datafile_token && job.result_file) {
    body.result = {
      is_compressed: job.is_compressed === 1,
      datafile_url: datafileUrl(baseUrl, job),
      output_format: job.output_format,
      ...(job.output_format === 'csv' ? { csv_dialect: csvDialectOf(job) } : {}),
      ...(job.output_format === 'gexf' && gexfSliceOf(job) ? { gexf_dynamic: gexfSliceOf(job)! } : {}),
      file_name: job.result_file,
      rows: job.result_rows ?? 0,
      bytes: job.result_bytes ?? 0,
      ...(typeof job.file_deleted_at_ms === 'number' ? { file_deleted_at: iso(job.file_deleted_at_ms)!, file_deleted_by: job.file_deleted_by ?? 'user' } : {}),
    };
  }
  return body;
}
