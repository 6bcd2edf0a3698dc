// The syntax tree of a search query. Every node keeps its source span (UTF-16 offsets into the
// query text, end exclusive) so a later stage can still point the user at the exact characters.

export interface Span {
  start: number;
  end: number;
}

/** A plain word, matched through the full-text index (FTS5 tokenizes it). */
export interface WordNode extends Span {
  kind: 'word';
  text: string;
}

/** "an exact phrase": its tokens, adjacent and in order. */
export interface PhraseNode extends Span {
  kind: 'phrase';
  text: string;
}

/** `name:value`, `#tag`, `$cash`, `@name`: everything that is not full text. */
export interface OperatorNode extends Span {
  kind: 'operator';
  op: OperatorName;
  /** Validated, normalised value (lower-cased names, BigInt ids, microsecond bounds...). */
  value: OperatorValue;
}

export interface NotNode extends Span {
  kind: 'not';
  child: QueryNode;
}

export interface AndNode extends Span {
  kind: 'and';
  children: QueryNode[];
}

export interface OrNode extends Span {
  kind: 'or';
  children: QueryNode[];
}

export type QueryNode = WordNode | PhraseNode | OperatorNode | NotNode | AndNode | OrNode;

export type OperatorName =
  | 'from'
  | 'to'
  | 'mention'
  | 'hashtag'
  | 'cashtag'
  | 'conversation_id'
  | 'since_id'
  | 'max_id'
  | 'quoted_tweet_id'
  | 'since'
  | 'until'
  | 'since_time'
  | 'until_time'
  | 'lang'
  | 'min_faves'
  | 'min_retweets'
  | 'min_replies'
  | 'filter'
  | 'url';

export type FilterName = 'replies' | 'quote' | 'links' | 'media' | 'self_threads';

export type OperatorValue =
  | { type: 'name'; name: string } // lower-cased screen name, tag, symbol, language or url part
  | { type: 'id'; id: bigint }
  | { type: 'time_us'; us: number } // an instant, microseconds since the epoch (UTC)
  | { type: 'count'; n: number }
  | { type: 'filter'; filter: FilterName };
