import { searchPage } from '../../search';
import type { Db } from '../../store/db';
import type { SearchParams } from '../params';
import type { RowSource } from './source';

/**
 * A search job (spec 4.7): the query with since_id (exclusive: the job stops when it reaches it)
 * and max_id (inclusive, exactly as if ` max_id:<ID>` were appended to the query), in the order
 * of `type`, until max_count rows.
 */
export function searchSource(db: Db, params: SearchParams): RowSource {
  const bounds = {
    ...(params.since_id === undefined ? {} : { sinceId: BigInt(params.since_id) }),
    ...(params.max_id === undefined ? {} : { maxId: BigInt(params.max_id) }),
  };
  return {
    next(cursor, limit) {
      const page = searchPage(db, { query: params.query, type: params.type, cursor, limit, ...bounds });
      return { ids: page.ids, cursor: page.nextCursor };
    },
  };
}
