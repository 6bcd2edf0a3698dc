import type { Overview } from '../../../shared/contract';
import { fail } from '../errors';
import type { Engine } from '../engine';
import { BUCKETS, computeOverview, DEFAULT_TOP, MAX_TOP, type Bucket } from '../overview';
import { idArg, oneOf, optionalIntArg, record, textArg } from './validate';

/** Whole-hour and half-hour zones run from UTC-12 to UTC+14. */
const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * The overview of a search query's matches or of one user's posts in the corpus (the app's own
 * read: free, like the search pages). Exactly one of `query` and `user_id`.
 */
export function overviewOf(engine: Engine, raw: unknown): Overview {
  const args = record(raw);
  const hasQuery = args.query !== undefined && args.query !== null && args.query !== '';
  const hasUser = args.user_id !== undefined && args.user_id !== null && args.user_id !== '';
  if (hasQuery === hasUser) throw fail.invalid(hasQuery ? 'user_id' : 'query', 'give exactly one of query and user_id.');
  const bucket = args.bucket === undefined || args.bucket === null || args.bucket === '' ? undefined : oneOf<Bucket>(args, 'bucket', BUCKETS);
  const utcOffsetMinutes = optionalIntArg(args, 'utc_offset_minutes', -MAX_OFFSET_MINUTES, MAX_OFFSET_MINUTES) ?? 0;
  const top = optionalIntArg(args, 'top', 1, MAX_TOP) ?? DEFAULT_TOP;
  const options = { ...(bucket ? { bucket } : {}), utcOffsetMinutes, top };
  if (hasQuery) {
    const query = textArg(args, 'query', 1024);
    return { scope: { query }, ...computeOverview(engine.db, { query }, options) };
  }
  const userId = idArg(args, 'user_id');
  return { scope: { user_id: userId }, ...computeOverview(engine.db, { userId: BigInt(userId) }, options) };
}
