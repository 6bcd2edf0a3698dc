import type { OutputFormat } from './job-row';
export type SearchType = 'Latest' | 'Top';

// The validated parameters of a job as stored in jobs.params_json. Ids are decimal strings (exact
// 64-bit values; JSON.stringify cannot hold a BigInt).
export interface RepliesParams {
  tweet_id: string;
  since_id?: string;
  max_count?: number;
}

export interface SearchParams {
  query: string;
  type: SearchType;
  since_id?: string;
  max_id?: string;
  max_count: number;
}

export type JobParams = RepliesParams | SearchParams;

export interface JobOutput {
  output_format: OutputFormat;
  compress: boolean;
}
