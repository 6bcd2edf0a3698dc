import { searchPage } from '../../search';
import type { Db } from '../../store/db';
import type { RepliesParams } from '../params';
import { loadTweetRows } from '../tweet-row';
import { walletAddress } from '../wallet';
import type { RowSource } from './source';

/**
 * Reply collection (spec 1 and 4.6): the search `conversation_id:<tweet_id>` restricted to reply
 * depths one and two (direct replies and replies to them; the root and deeper levels are left
 * out), newest first, stopping at since_id. Each reply gets wallet_address (spec 1).
 */
export function repliesSource(db: Db, params: RepliesParams): RowSource {
  const sinceId = params.since_id === undefined ? undefined : BigInt(params.since_id);
  return {
    next(cursor, limit) {
      const page = searchPage(db, {
        query: `conversation_id:${params.tweet_id}`,
        type: 'Latest',
        cursor,
        limit,
        replyDepth: { min: 1, max: 2 },
        ...(sinceId === undefined ? {} : { sinceId }),
      });
      const rows = loadTweetRows(db, page.ids);
      return { rows, wallets: rows.map((r) => walletAddress(r.full_text)), cursor: page.nextCursor };
    },
  };
}

