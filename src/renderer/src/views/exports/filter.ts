import type { ExportFile, OutputFormat } from '../../../../shared/contract';

// The Exports list's filters (issue 15): text (a part of the file name, the job's name, its query
// or post id, or a job number), format, and whether the file is still in the folder. Plain data in, plain data out, so it is unit-tested.

export interface ExportFilter {
  text: string;
  format: OutputFormat | 'all';
  /** 'kept' also shows files missing from the folder: both are not deleted by Skein. */
  state: 'all' | 'kept' | 'deleted';
}

export const NO_FILTER: ExportFilter = { text: '', format: 'all', state: 'all' };

export function filterExports(files: readonly ExportFile[], filter: ExportFilter): ExportFile[] {
  const text = filter.text.trim().toLowerCase();
  const job = /^#?\d+$/.test(text) ? Number(text.replace('#', '')) : null;
  return files.filter(
    (f) =>
      (filter.format === 'all' || f.format === filter.format) &&
      (filter.state === 'all' || (filter.state === 'deleted') === (f.file_state === 'deleted')) &&
      (text === '' || f.job_id === job || [f.file_name, f.job_name, f.job_query, f.job_tweet_id].some((v) => v?.toLowerCase().includes(text))),
  );
}
