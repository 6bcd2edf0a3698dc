import { isRecord } from '../write/json';
import { visible } from './detect';

// An X archive's data/tweets.js is JavaScript: `window.YTD.tweets.part0 = [{"tweet": {...}}, ...]`.
// The importer used to skip whatever came before the first bracket, so a tweets.js without the
// prefix, or the archive's likes (`window.YTD.like.part0 = [{"like": {...}}]`) saved under that
// name, imported without a word (issue 13). The prefix is now checked and the file refused when it
// is missing or another, naming what was expected and what was found; then each element must be
// a post (checked in index.ts with isArchivePost).

export const EXPECTED_PREFIX = 'window.YTD.tweets.part0 = [';

// tweet.js / `window.YTD.tweet.part0` in archives from 2019-2020, tweets-part1.js for the parts of
// a large archive; spaces around '=' vary between archive versions.
const TWEETS_PREFIX = /^window\.YTD\.tweets?\.part\d+\s*=\s*\[/;
const OTHER_PREFIX = /^window\.YTD\.([A-Za-z0-9_]+)\.part\d+\s*=\s*\[?/;

/** Why a tweets.js head is not an archive's posts, or undefined when its prefix is right. */
export function archivePrefixProblem(head: string): string | undefined {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (TWEETS_PREFIX.test(text)) return undefined;
  const other = OTHER_PREFIX.exec(text);
  const found = other ? other[0] : text.replace(/[ \t\r\n]+/g, ' ').slice(0, 30);
  const what = other ? ` (the archive's '${other[1]}' data, not its posts)` : text === '' ? ' (an empty file)' : ' (no prefix)';
  return `an X archive tweets file starts with '${EXPECTED_PREFIX}', this one starts with '${visible(found)}'${what}`;
}

/** `{"tweet": {...}}`, or the bare post of older archives (an id, a date and a text). */
export function isArchivePost(v: Record<string, unknown>): boolean {
  if (isRecord(v.tweet)) return true;
  return (typeof v.id_str === 'string' || typeof v.id === 'string') && typeof v.created_at === 'string' && (typeof v.full_text === 'string' || typeof v.text === 'string');
}

/** The first `chars` characters of a text stream, and the whole stream (head included) to read on. */
export async function peekHead(chunks: AsyncIterator<string>, chars: number): Promise<{ head: string; all: AsyncGenerator<string> }> {
  const seen: string[] = [];
  let n = 0;
  let done = false;
  while (n < chars) {
    const next = await chunks.next();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    n += next.value.length;
  }
  async function* all(): AsyncGenerator<string> {
    yield* seen;
    if (done) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  return { head: seen.join('').slice(0, chars), all: all() };
}
