import type { Engine } from '../engine';
import { fail } from '../errors';
import { findPost } from '../reads/details';
import type { ReadResult } from '../reads/result';
import { timelineTweet, type JsonObject } from '../serialize/tweet';
import type { SearchType } from './cursor';
import { MAX_QUERY_LENGTH } from './lexer';
import { searchPage } from './page';
import { inSnapshot } from './statements';
import { openSearchCursor, sealSearchCursor } from './sealed-cursor';

/** The synchronous search's page size: a timeline page's (spec 8: about 20, not adjustable). */
export const SEARCH_PAGE_SIZE = 20;

export interface SearchResultsPage extends JsonObject {
  next_cursor: string;
  tweets: JsonObject[];
}

const TYPES: readonly SearchType[] = ['Latest', 'Top'];

/**
 * One page of the synchronous search (`GET /social/search`, an extension): 20 tweets in the
 * timeline shape, newest first (Latest) or best first (Top). The raw request strings are checked
 * here so HTTP and IPC refuse the same input. next_cursor follows the timelines' rule
 * (docs/decisions.md): a page with tweets always carries a sealed cursor, an empty page "".
 */
export function readSearch(engine: Pick<Engine, 'db' | 'ids' | 'clock'>, raw: { query?: unknown; type?: unknown; cursor?: unknown }): ReadResult<SearchResultsPage> {
  const { query, type } = checkSearchRequest(raw);
  const cursor = raw.cursor === undefined ? null : openSearchCursor(engine, query, type, raw.cursor);
  // The page and the 20 posts it prints in one snapshot: one read lock instead of 21.
  const { page, tweets } = inSnapshot(engine.db, () => {
    const found = searchPage(engine.db, { query, type, cursor, limit: SEARCH_PAGE_SIZE });
    const rows: JsonObject[] = [];
    for (const id of found.ids) {
      const row = findPost(engine, id);
      if (row) rows.push(timelineTweet(row));
    }
    return { page: found, tweets: rows };
  });
  const next_cursor = page.endCursor === null ? '' : sealSearchCursor(engine, query, type, page.endCursor);
  return { value: { next_cursor, tweets }, items: tweets.length };
}

/** The synchronous search's query and type, checked (422 naming the parameter), as readSearch checks them. */
export function checkSearchRequest(raw: { query?: unknown; type?: unknown }): { query: string; type: SearchType } {
  const query = text('query', raw.query, MAX_QUERY_LENGTH);
  if (query === undefined || query.trim() === '') throw fail.missing('query');
  const typeText = text('type', raw.type, 16) ?? 'Latest';
  const type = TYPES.find((t) => t === typeText);
  if (!type) throw fail.invalid('type', `expected Latest or Top (case matters), got '${typeText.replace(/[^\x20-\x7e]/g, '?')}'.`);
  return { query, type };
}

function text(parameter: string, raw: unknown, maxLength: number): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw)) throw fail.invalid(parameter, 'give it once, not several times.');
  if (typeof raw !== 'string') throw fail.invalid(parameter, 'expected text.');
  if (raw.length > maxLength) throw fail.invalid(parameter, `too long: at most ${maxLength} characters.`);
  return raw;
}
