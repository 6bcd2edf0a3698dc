import { SkeinError } from '../errors';

/** Where a query went wrong, for the app to underline: columns count characters (code points). */
export interface SyntaxErrorInfo {
  /** 1-based column of the first offending character. */
  position: number;
  /** Characters to underline, at least 1. */
  length: number;
  /** What was found and what was expected, without the parameter prefix. */
  message: string;
}

/**
 * A query the parser or compiler cannot accept: a client's mistake, so `invalid` (HTTP 422). The
 * message names the column and what was expected; `position`/`length` let the app underline it.
 */
export class SearchSyntaxError extends SkeinError {
  override name = 'SearchSyntaxError';
  readonly position: number;
  readonly length: number;
  readonly detail: string;
  /** The same span as UTF-16 offsets into the query (end exclusive), for JS string slicing. */
  readonly offset: number;
  readonly endOffset: number;

  constructor(query: string, startOffset: number, endOffset: number, detail: string, parameter = 'query') {
    const start = Math.max(0, Math.min(startOffset, query.length));
    const end = Math.max(start, Math.min(endOffset, query.length));
    const position = codePointColumn(query, start);
    const length = Math.max(1, codePointColumn(query, end) - position);
    // The span also travels as response headers, so an HTTP client can underline it without
    // parsing the message (the spec's error body has only status and message).
    super('invalid', `Invalid parameter '${parameter}': ${detail.replace('{col}', `column ${position}`)}`, {
      'Skein-Query-Error-Column': String(position),
      'Skein-Query-Error-Length': String(length),
    });
    this.position = position;
    this.length = length;
    this.detail = detail.replace('{col}', `column ${position}`);
    this.offset = start;
    this.endOffset = end;
  }

  toJSON(): SyntaxErrorInfo {
    return { position: this.position, length: this.length, message: this.detail };
  }
}

/** 1-based column of a UTF-16 offset, counting code points (an emoji is one column). */
function codePointColumn(text: string, offset: number): number {
  let column = 1;
  for (let i = 0; i < offset; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single character.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < offset) i++;
    column++;
  }
  return column;
}
