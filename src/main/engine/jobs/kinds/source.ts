/** One read page of a job's walk through the store, newest first: the post ids, not yet their rows. */
export interface SourcePage {
  ids: bigint[];
  /** Where the next page starts; null when the walk is over. */
  cursor: string | null;
}

export interface RowSource {
  /** At most `limit` ids (1 to 1000, the search's page size). */
  next(cursor: string | null, limit: number): SourcePage;
  /** wallet_address of a row with this text (reply collection); absent elsewhere. */
  wallet?: (fullText: string) => string;
}
