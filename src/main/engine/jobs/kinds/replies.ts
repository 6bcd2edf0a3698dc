import { repliesPage } from '../../search';
import type { Db } from '../../store/db';
import type { RepliesParams } from '../params';
import { walletAddress } from '../wallet';
import type { RowSource } from './source';

/**
 * Reply collection (spec 1 and 4.6): the post's direct replies and their replies (levels one and
 * two counted from that post, whether or not it is its conversation's root; for a root that is the
 * spec's search `conversation_id:<tweet_id>`), newest first, stopping at since_id, protected
 * accounts left out (search/replies.ts). Each reply gets wallet_address (spec 1).
 */
export function repliesSource(db: Db, params: RepliesParams): RowSource {
  const tweetId = BigInt(params.tweet_id);
  const sinceId = params.since_id === undefined ? undefined : BigInt(params.since_id);
  return {
    next(cursor, limit) {
      const page = repliesPage(db, { tweetId, cursor, limit, ...(sinceId === undefined ? {} : { sinceId }) });
      return { ids: page.ids, cursor: page.nextCursor };
    },
    wallet: walletAddress,
  };
}
