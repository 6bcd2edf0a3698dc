import type { JobRow, OutputFormat } from '../../../../shared/contract';

// The Jobs list's filters (issue 15), as the Exports list's: status (with the app's own
// 'cancelled', which the API reports as 'error'), kind, file format, and text matching the job's
// name, query, post id or user (id or @screen name), or its number. Plain data in, plain data out, so it is unit-tested.

export type JobStatusFilter = 'all' | 'running' | 'success' | 'failed' | 'cancelled';

export interface JobFilter {
  text: string;
  status: JobStatusFilter;
  kind: JobRow['kind'] | 'all';
  format: OutputFormat | 'all';
}

export const NO_JOB_FILTER: JobFilter = { text: '', status: 'all', kind: 'all', format: 'all' };

/** The status a job shows: a cancelled job is not a failure, and pending and processing are both running. */
export function statusOf(job: JobRow): Exclude<JobStatusFilter, 'all'> {
  if (job.cancelled) return 'cancelled';
  if (job.status === 'error') return 'failed';
  return job.status === 'success' ? 'success' : 'running';
}

export function filterJobs(jobs: readonly JobRow[], filter: JobFilter): JobRow[] {
  const text = filter.text.trim().toLowerCase();
  const number = /^#?\d+$/.test(text) ? Number(text.replace('#', '')) : null;
  return jobs.filter((j) => {
    const p = j.params;
    return (
      (filter.status === 'all' || statusOf(j) === filter.status) &&
      (filter.kind === 'all' || j.kind === filter.kind) &&
      (filter.format === 'all' || (p.output_format ?? 'json') === filter.format) &&
      // A number is a job's number or a part of a post id (ids are 19 digits; job numbers are short).
      (text === '' || j.job_id === number || [p.name, p.query, p.tweet_id, p.user_id, j.subject_screen_name, j.subject_screen_name ? `@${j.subject_screen_name}` : null].some((v) => typeof v === 'string' && v.toLowerCase().includes(text)))
    );
  });
}
