import { SearchSyntaxError } from './syntax-error';

// Splits a query into tokens with their UTF-16 spans. The lexer knows the shapes only
// (`name:value`, `#x`, `"..."`); operator names and values are checked by the parser.

export type Token =
  | { type: 'lparen' | 'rparen' | 'or' | 'and' | 'minus'; start: number; end: number }
  | { type: 'word' | 'phrase' | 'hashtag' | 'cashtag' | 'mention'; text: string; start: number; end: number }
  | { type: 'operator'; name: string; value: string; valueStart: number; start: number; end: number };

/** Longest query we accept, in UTF-16 units (the platform's limit is about 500 characters). */
export const MAX_QUERY_LENGTH = 1024;

const isSpace = (c: string) => /\s/u.test(c);
const CONTROL = /(?![\t\n\r\f\v])\p{Cc}/u;
// A bare run ends at whitespace, a parenthesis or a quote.
const isBreak = (c: string) => isSpace(c) || c === '(' || c === ')' || c === '"';
const OPERATOR_SHAPE = /^([A-Za-z_][A-Za-z0-9_]*):/;

export function tokenize(query: string): Token[] {
  if (query.length > MAX_QUERY_LENGTH) {
    throw new SearchSyntaxError(query, MAX_QUERY_LENGTH, query.length, `the query is longer than ${MAX_QUERY_LENGTH} characters (at {col})`);
  }
  // NUL and other control characters (tab and newline are spaces) are never text a user meant;
  // FTS5 stops reading at a NUL, so they are refused with their column, even inside a phrase.
  const control = CONTROL.exec(query);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new SearchSyntaxError(query, control.index, control.index + 1, `control character U+${code} at {col}: remove it`);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'lparen' : 'rparen', start, end: i + 1 });
      i++;
      continue;
    }
    if (c === '"') {
      const close = query.indexOf('"', i + 1);
      if (close < 0) {
        throw new SearchSyntaxError(query, start, query.length, 'unterminated phrase starting at {col}: expected a closing \'"\'');
      }
      tokens.push({ type: 'phrase', text: query.slice(i + 1, close), start, end: close + 1 });
      i = close + 1;
      continue;
    }
    if (c === '-') {
      const next = query[i + 1];
      if (next === undefined || isSpace(next) || next === ')') {
        throw new SearchSyntaxError(query, start, i + 1, "'-' at {col} must be followed directly by the term it excludes (e.g. -word, -from:name)");
      }
      tokens.push({ type: 'minus', start, end: i + 1 });
      i++;
      continue;
    }
    let end = i;
    while (end < query.length && !isBreak(query[end]!)) end++;
    const run = query.slice(i, end);
    i = end;
    if (run === 'OR') tokens.push({ type: 'or', start, end });
    else if (run === 'AND') tokens.push({ type: 'and', start, end });
    else if (c === '#' || c === '@' || (c === '$' && /^\$[A-Za-z]/.test(run))) {
      tokens.push({ type: c === '#' ? 'hashtag' : c === '@' ? 'mention' : 'cashtag', text: run.slice(1), start, end });
    } else {
      const op = OPERATOR_SHAPE.exec(run);
      if (op) {
        let value = run.slice(op[0].length);
        // name:"quoted value" (url:"..."): the quote is part of the operator, not a phrase.
        if (value === '' && query[end] === '"') {
          const close = query.indexOf('"', end + 1);
          if (close < 0) {
            throw new SearchSyntaxError(query, end, query.length, 'unterminated quoted value starting at {col}: expected a closing \'"\'');
          }
          value = query.slice(end + 1, close);
          i = close + 1;
        }
        tokens.push({ type: 'operator', name: op[1]!, value, valueStart: start + op[0].length, start, end: i });
      } else {
        tokens.push({ type: 'word', text: run, start, end });
      }
    }
  }
  return tokens;
}
