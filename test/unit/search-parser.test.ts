import { describe, expect, it } from 'vitest';
import { parseQuery, SearchSyntaxError, type QueryNode } from '../../src/main/engine/search';
import { SkeinError } from '../../src/main/engine/errors';

// The tree printed compactly: words bare, "phrases", op:value, -negation, (AND ..), (OR ..).
function show(n: QueryNode): string {
  switch (n.kind) {
    case 'word':
      return n.text;
    case 'phrase':
      return `"${n.text}"`;
    case 'not':
      return `-${show(n.child)}`;
    case 'and':
    case 'or':
      return `(${n.kind.toUpperCase()} ${n.children.map(show).join(' ')})`;
    case 'operator': {
      const v = n.value;
      const value = v.type === 'name' ? v.name : v.type === 'id' ? `${v.id}n` : v.type === 'time_us' ? `${v.us}us` : v.type === 'count' ? String(v.n) : v.filter;
      return `${n.op}:${value}`;
    }
  }
}

const JAN1_US = Date.UTC(2024, 0, 1) * 1000;

describe('parseQuery: every operator and the precedence rules', () => {
  it.each([
    ['fox', 'fox'],
    ['quick brown fox', '(AND quick brown fox)'],
    ['"exact phrase"', '"exact phrase"'],
    ['cats OR dogs', '(OR cats dogs)'],
    ['cats dogs OR birds', '(OR (AND cats dogs) birds)'],
    ['cats (dogs OR birds)', '(AND cats (OR dogs birds))'],
    ['a OR b OR c', '(OR a b c)'],
    ['(a OR b) OR c', '(OR a b c)'],
    ['a AND b', '(AND a b)'],
    ['a AND b OR c', '(OR (AND a b) c)'],
    ['-cats', '-cats'],
    ['dogs -cats', '(AND dogs -cats)'],
    ['-(a OR b) c', '(AND -(OR a b) c)'],
    ['--a', '--a'],
    ['-"a phrase"', '-"a phrase"'],
    ['or and', '(AND or and)'],
    ['from:Alice', 'from:alice'],
    ['from:@alice', 'from:alice'],
    ['FROM:alice', 'from:alice'],
    ['to:Bob_1', 'to:bob_1'],
    ['@Carol', 'mention:carol'],
    ['#Foxes', 'hashtag:foxes'],
    ['#ÄÖ_1', 'hashtag:äö_1'],
    ['$AAPL', 'cashtag:aapl'],
    ['$BRK.B', 'cashtag:brk.b'],
    ['$5', '$5'],
    ['conversation_id:1800000000000001000', 'conversation_id:1800000000000001000n'],
    ['since_id:9223372036854775807', 'since_id:9223372036854775807n'],
    ['max_id:1', 'max_id:1n'],
    ['quoted_tweet_id:42', 'quoted_tweet_id:42n'],
    ['since:2024-01-01', `since:${JAN1_US}us`],
    ['until:2024-02-29', `until:${Date.UTC(2024, 1, 29) * 1000}us`],
    ['since_time:1704067200', `since_time:${JAN1_US}us`],
    ['since:2024-01-01_12:30:05_UTC', `since:${Date.UTC(2024, 0, 1, 12, 30, 5) * 1000}us`],
    ['until:2024-01-01_00:00:00_UTC', `until:${JAN1_US}us`],
    ['until_time:0', 'until_time:0us'],
    ['lang:EN', 'lang:en'],
    ['lang:zh-cn', 'lang:zh-cn'],
    ['min_faves:10', 'min_faves:10'],
    ['min_retweets:0', 'min_retweets:0'],
    ['min_replies:5', 'min_replies:5'],
    ['-min_faves:10', '-min_faves:10'],
    ['filter:replies', 'filter:replies'],
    ['-filter:replies', '-filter:replies'],
    ['filter:quote', 'filter:quote'],
    ['filter:links', 'filter:links'],
    ['filter:media', 'filter:media'],
    ['filter:self_threads', 'filter:self_threads'],
    ['url:Example.COM', 'url:example.com'],
    ['url:"example.com/a b"', 'url:example.com/a b'],
    ['covid-19 12:30', '(AND covid-19 12:30)'],
    ['(from:alice OR from:bob) -filter:replies', '(AND (OR from:alice from:bob) -filter:replies)'],
    ['  spaced   out  ', '(AND spaced out)'],
  ])('%s', (query, expected) => {
    expect(show(parseQuery(query))).toBe(expected);
  });

  it('keeps source spans (UTF-16 offsets) on every node', () => {
    const n = parseQuery('dogs -from:bob');
    expect(n.kind).toBe('and');
    if (n.kind !== 'and') return;
    expect(n.children.map((c) => [c.start, c.end])).toEqual([
      [0, 4],
      [5, 14],
    ]);
  });
});

describe('parseQuery: errors name the column and what was expected', () => {
  it.each([
    // query, position (1-based column), length, words the message must contain
    ['', 1, 1, 'the query is empty'],
    ['form:alice', 1, 5, "unknown operator 'form:' at column 1"],
    ['cats http://x.com', 6, 5, "unknown operator 'http:' at column 6"],
    ['(cats', 1, 1, "missing ')' to close the '(' at column 1"],
    ['cats)', 5, 1, "unmatched ')' at column 5"],
    ['()', 1, 2, 'empty parentheses at column 1'],
    ['cats OR', 6, 2, "'OR' at column 6 needs a term after it"],
    ['OR cats', 1, 2, "'OR' at column 1 needs a term before it"],
    ['a OR OR b', 3, 2, "'OR' at column 3 needs a term after it"],
    ['AND a', 1, 3, "'AND' at column 1 needs a term before it"],
    ['a - b', 3, 1, "'-' at column 3 must be followed directly"],
    ['a -', 3, 1, "'-' at column 3"],
    ['"open phrase', 1, 12, 'unterminated phrase starting at column 1'],
    ['""', 1, 2, 'no letters or digits'],
    ['a & b', 3, 1, "'&' at column 3 has no letters or digits"],
    ['from:', 1, 5, "'from:' at column 1 needs a value"],
    ['from:al-ice', 6, 6, "'from:' value 'al-ice' at column 6: expected a screen name"],
    ['since:2024-02-30', 7, 10, 'a real calendar date'],
    ['since:2024-01-01_24:00:00_UTC', 7, 23, 'a real calendar date and time'],
    ['since:2024-01-01_12:00', 7, 16, 'YYYY-MM-DD_HH:MM:SS_UTC'],
    ['since:yesterday', 7, 9, 'YYYY-MM-DD'],
    ['until:2024/01/01', 7, 10, 'YYYY-MM-DD'],
    ['since_time:soon', 12, 4, 'unix seconds'],
    ['since_id:12a', 10, 3, 'numeric post id'],
    ['max_id:99999999999999999999', 8, 20, 'numeric post id'],
    ['max_id:9223372036854775808', 8, 19, 'at most 9223372036854775807'],
    ['min_faves:-1', 11, 2, 'whole number'],
    ['lang:english', 6, 7, 'language code'],
    ['filter:retweets', 8, 8, 'filter:replies, filter:quote'],
    ['#', 1, 1, 'expected a hashtag'],
    ['#foo,', 1, 5, 'expected a hashtag'],
    ['@', 1, 1, 'expected a screen name'],
    ['$a-b', 1, 4, 'expected a cashtag'],
    ['"🔥fire" form:x', 9, 5, "unknown operator 'form:' at column 9"],
    ['🔥', 1, 1, "'🔥' at column 1 has no letters or digits"],
    ['url:"open', 5, 5, 'unterminated quoted value'],
    ['a\u0000b', 2, 1, 'control character U+0000 at column 2'],
    ['"a\u0007"', 3, 1, 'control character U+0007 at column 3'],
  ])('%j', (query, position, length, words) => {
    let caught: unknown;
    try {
      parseQuery(query);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SearchSyntaxError);
    expect(caught).toBeInstanceOf(SkeinError);
    const e = caught as SearchSyntaxError;
    expect(e.code).toBe('invalid');
    expect(e.message).toMatch(/^Invalid parameter 'query': /);
    expect(e.message).toContain(words);
    expect({ position: e.position, length: e.length }).toEqual({ position, length });
    expect(e.toJSON()).toEqual({ position, length, message: e.detail });
  });

  it('limits length, nesting and the number of terms', () => {
    expect(() => parseQuery('a'.repeat(1025))).toThrow(/longer than 1024/);
    expect(() => parseQuery('('.repeat(40) + 'a' + ')'.repeat(40))).toThrow(/too deeply nested at column 33/);
    expect(() => parseQuery('-'.repeat(40) + 'a')).toThrow(/too deeply nested/);
    expect(() => parseQuery(Array.from({ length: 65 }, (_, i) => `w${i}`).join(' '))).toThrow(/too many terms: at most 64/);
    expect(() => parseQuery(Array.from({ length: 64 }, (_, i) => `w${i}`).join(' '))).not.toThrow();
  });
});
