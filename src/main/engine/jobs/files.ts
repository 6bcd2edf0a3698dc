import { join } from 'node:path';
import type { JobRow } from './job-row';
import type { RepliesParams, TimelineParams } from './params';
import { stagedFormats } from './writers/formats';

// Where a job's files live: data files under <dataDir>/exports with readable names
// (replies-<tweet_id>-job<id>.csv, search-job<id>.xlsx, timeline-<user_id>-job<id>.json, "<name>.<ext>.zip" when compressed, with
// the data file inside), staged output under <dataDir>/exports/.partial until the job ends.

export const exportsDir = (dataDir: string): string => join(dataDir, 'exports');
export const partialDir = (dataDir: string): string => join(dataDir, 'exports', '.partial');

export function dataFileName(job: Pick<JobRow, 'id' | 'kind' | 'params_json' | 'output_format'>): string {
  const base =
    job.kind === 'replies'
      ? `replies-${(JSON.parse(job.params_json) as RepliesParams).tweet_id}-job${job.id}`
      : job.kind === 'timeline'
        ? `timeline-${(JSON.parse(job.params_json) as TimelineParams).user_id}-job${job.id}`
        : `search-job${job.id}`;
  return `${base}.${job.output_format}`;
}

export function stagedPath(dataDir: string, job: Pick<JobRow, 'id' | 'output_format'>): string {
  return join(partialDir(dataDir), `job${job.id}.${stagedFormats[job.output_format].stagingExt}`);
}
