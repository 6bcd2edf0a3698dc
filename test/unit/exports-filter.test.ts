import { describe, expect, it } from 'vitest';
import type { ExportFile } from '../../src/shared/contract';
import { filterExports, NO_FILTER } from '../../src/renderer/src/views/exports/filter';

// The Exports list's filters (text, format, state): pure data in and out.
function file(job_id: number, file_name: string, format: ExportFile['format'], file_state: ExportFile['file_state'], job_name: string | null = null): ExportFile {
  const replies = file_name.startsWith('replies-');
  return { job_id, job_kind: replies ? 'replies' : 'search', job_name, job_query: replies ? null : `query of job ${job_id}`, job_tweet_id: replies ? file_name.split('-')[1]! : null, job_user_id: null, file_name, format, file_state, is_compressed: false, rows: 1, bytes: 1, finished_ms: 0, datafile_url: '', path: '', deleted_ms: null, deleted_by: null, rows_recorded: true };
}

const files = [
  file(12, 'replies-1850000000000000000-job12.csv', 'csv', 'kept'),
  file(7, 'search-job7.xlsx', 'xlsx', 'deleted', 'Election night'),
  file(3, 'search-job3.json', 'json', 'missing'),
  file(1, 'replies-1812000000000000000-job1.csv', 'csv', 'deleted'),
];
const ids = (f: ExportFile[]) => f.map((x) => x.job_id);

describe('filterExports', () => {
  it('matches a part of the file name, case-insensitively, or a job number', () => {
    expect(ids(filterExports(files, NO_FILTER))).toEqual([12, 7, 3, 1]);
    expect(ids(filterExports(files, { ...NO_FILTER, text: ' SEARCH ' }))).toEqual([7, 3]);
    expect(ids(filterExports(files, { ...NO_FILTER, text: '7' }))).toEqual([7]);
    expect(ids(filterExports(files, { ...NO_FILTER, text: '#3' }))).toEqual([3]);
    expect(ids(filterExports(files, { ...NO_FILTER, text: '1812' }))).toEqual([1]);
  });

  it("matches the job's name and its query (issue 15)", () => {
    expect(ids(filterExports(files, { ...NO_FILTER, text: 'election' }))).toEqual([7]);
    expect(ids(filterExports(files, { ...NO_FILTER, text: 'query of job 3' }))).toEqual([3]);
  });

  it('filters by format and by state, where kept also shows files missing from the folder', () => {
    expect(ids(filterExports(files, { ...NO_FILTER, format: 'csv' }))).toEqual([12, 1]);
    expect(ids(filterExports(files, { ...NO_FILTER, state: 'deleted' }))).toEqual([7, 1]);
    expect(ids(filterExports(files, { ...NO_FILTER, state: 'kept' }))).toEqual([12, 3]);
    expect(ids(filterExports(files, { text: 'replies', format: 'csv', state: 'deleted' }))).toEqual([1]);
  });
});
