import type { TweetRow } from '../tweet-row';

/** One batch of a job's walk through the store, newest first. */
export interface SourcePage {
  rows: TweetRow[];
  /** wallet_address per row (reply collection), undefined elsewhere. */
  wallets: (string | undefined)[];
  /** Where the next batch starts; null when the walk is over. */
  cursor: string | null;
}

export interface RowSource {
  next(cursor: string | null, limit: number): SourcePage;
}
