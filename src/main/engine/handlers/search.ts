import type { SearchCount, TimelinePage, Tweet } from '../../../shared/contract';
import { APP_REQUESTER } from './app-user';
import type { Engine } from '../engine';
import { findPost } from '../reads';
import { countMatches, readSearch, searchPage } from '../search';
import { timelineTweet } from '../serialize/tweet';
import { searchVia } from '../upstream/fetch-reads';
import { modeOf } from '../upstream/gateway';
import { oneOf, optionalTextArg, record, textArg } from './validate';
import { pageOf } from './reads';
import { jsonSafe } from './wire';

const PAGE_SIZE = 20;

/**
 * One page of search results for the app, like the synchronous search extension: 20 posts in the
 * timeline shape (free for the app, like its other reads; the page size is its bound). The cursor
 * is the search's keyset string; the app holds it only between two pages of its own view. With an
 * upstream set, the page goes through it as the mode says (as GET /social/search does), booked as
 * the app's spend; its cursor is then a sealed page cursor.
 */
export function searchResults(engine: Engine, raw: unknown): TimelinePage | Promise<TimelinePage> {
  const args = record(raw);
  const query = textArg(args, 'query', 1024);
  const type = oneOf(args, 'type', ['Latest', 'Top'] as const, 'Latest');
  const cursor = optionalTextArg(args, 'cursor', 256) ?? null;
  if (modeOf(engine) !== 'offline') {
    const local = () => readSearch(engine, { query, type, ...(cursor === null ? {} : { cursor }) });
    return searchVia(engine, APP_REQUESTER, query, type, cursor ?? undefined, local).then(({ result }) => pageOf(result.value));
  }
  const page = searchPage(engine.db, { query, type, cursor, limit: PAGE_SIZE });
  const tweets: Tweet[] = [];
  for (const id of page.ids) {
    const row = findPost(engine, id);
    if (row) tweets.push(jsonSafe<Tweet>(timelineTweet(row)));
  }
  return { next_cursor: page.nextCursor, tweets };
}

/**
 * The posts of the corpus a search job for this query would collect, counted before collecting
 * (the Search page shows it, and "Collect all into a file" starts with it as max_count). Counted
 * in SQLite up to SEARCH_COUNT_CAP, a bound on the time it takes; past it the answer says so.
 */
export const SEARCH_COUNT_CAP = 1_000_000;

export function searchCount(engine: Engine, raw: unknown): SearchCount {
  const query = textArg(record(raw), 'query', 1024);
  // One more than the cap tells "exactly the cap" from "more than the cap".
  const count = countMatches(engine.db, { query }, SEARCH_COUNT_CAP + 1);
  const upstream = modeOf(engine) !== 'offline';
  return count > SEARCH_COUNT_CAP ? { count: SEARCH_COUNT_CAP, capped: true, upstream } : { count, capped: false, upstream };
}
