import type { TimelinePage, Tweet } from '../../../shared/contract';
import type { Engine } from '../engine';
import { findPost } from '../reads';
import { searchPage } from '../search';
import { timelineTweet } from '../serialize/tweet';
import { oneOf, optionalTextArg, record, textArg } from './validate';
import { jsonSafe } from './wire';

const PAGE_SIZE = 20;

/**
 * One page of search results for the app, like the synchronous search extension: 20 posts in the
 * timeline shape (free for the app, like its other reads; the page size is its bound). The cursor
 * is the search's keyset string; the app holds it only between two pages of its own view.
 */
export function searchResults(engine: Engine, raw: unknown): TimelinePage {
  const args = record(raw);
  const query = textArg(args, 'query', 1024);
  const type = oneOf(args, 'type', ['Latest', 'Top'] as const, 'Latest');
  const cursor = optionalTextArg(args, 'cursor', 256) ?? null;
  const page = searchPage(engine.db, { query, type, cursor, limit: PAGE_SIZE });
  const tweets: Tweet[] = [];
  for (const id of page.ids) {
    const row = findPost(engine, id);
    if (row) tweets.push(jsonSafe<Tweet>(timelineTweet(row)));
  }
  return { next_cursor: page.nextCursor, tweets };
}
