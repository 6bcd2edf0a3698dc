import { describe, expect, it } from 'vitest';
import type { JobRow } from '../../src/shared/contract';
import { filterJobs, NO_JOB_FILTER } from '../../src/renderer/src/views/jobs/filter';

// The Jobs list's filters (issue 15): status with the app's own 'cancelled', kind, format, text.
function job(job_id: number, status: JobRow['status'], params: Record<string, unknown>, cancelled = false): JobRow {
  return {
    job_id, kind: params.tweet_id ? 'replies' : params.user_id ? 'timeline' : 'search', user_name: 'app', subject_screen_name: params.user_id ? 'alice' : null, params, status, cancelled, progress: 0, progress_total: null,
    attempts: 0, message: null, credits_used: 0, created_ms: 0, started_ms: null, finished_ms: null, result: null, rows_recorded: true,
  };
}

const jobs = [
  job(14, 'processing', { query: 'climate lang:en', output_format: 'csv', name: 'COP week' }),
  job(9, 'error', { tweet_id: '1850000000000000000', output_format: 'json' }, true),
  job(8, 'error', { query: 'from:nasa', output_format: 'xlsx' }),
  job(5, 'success', { tweet_id: '1812000000000000000', output_format: 'csv', name: 'Debate replies' }),
  job(2, 'pending', { query: 'climate', output_format: 'gexf' }),
  job(1, 'success', { user_id: '9100000000000000001', timeline: 'tweets', output_format: 'xlsx' }),
];
const ids = (j: JobRow[]) => j.map((x) => x.job_id);

describe('filterJobs', () => {
  it("tells a cancelled job from a failed one, and counts pending and processing as running", () => {
    expect(ids(filterJobs(jobs, NO_JOB_FILTER))).toEqual([14, 9, 8, 5, 2, 1]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, status: 'cancelled' }))).toEqual([9]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, status: 'failed' }))).toEqual([8]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, status: 'running' }))).toEqual([14, 2]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, status: 'success' }))).toEqual([5, 1]);
  });

  it('filters by kind and format, and matches the name, query or post id, or a job number', () => {
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, kind: 'replies' }))).toEqual([9, 5]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, format: 'csv' }))).toEqual([14, 5]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, text: ' CLIMATE ' }))).toEqual([14, 2]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, text: 'debate' }))).toEqual([5]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, text: '1812' }))).toEqual([5]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, text: '#8' }))).toEqual([8]);
    expect(ids(filterJobs(jobs, { text: 'climate', status: 'running', kind: 'search', format: 'gexf' }))).toEqual([2]);
  });

  it("finds a timeline job by kind, by its user's id or by the screen name the corpus knows", () => {
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, kind: 'timeline' }))).toEqual([1]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, text: '91000000' }))).toEqual([1]);
    expect(ids(filterJobs(jobs, { ...NO_JOB_FILTER, text: '@Alice' }))).toEqual([1]);
  });
});
