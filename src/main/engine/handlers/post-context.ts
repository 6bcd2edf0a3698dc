import type { PostContext, Tweet } from '../../../shared/contract';
import type { Engine } from '../engine';
import { postOf } from '../reads/details';
import { threadContext } from '../reads/thread-context';
import type { PostRow } from '../serialize/rows';
import { detailTweet } from '../serialize/tweet';
import { idArg, record } from './validate';
import { jsonSafe } from './wire';

/** The post page's context (reads/thread-context.ts): read from the corpus, never from an upstream. */
export function postContext(engine: Engine, raw: unknown): PostContext {
  const id = idArg(record(raw), 'id');
  return engine.db.transaction(() => {
    const c = threadContext(engine.db, postOf(engine, id));
    const tweet = (row: PostRow) => jsonSafe<Tweet>(detailTweet(row));
    return {
      ancestors: c.ancestors.map(tweet),
      ancestors_truncated: c.ancestorsTruncated,
      missing_parent_id: c.missingParentId === null ? null : String(c.missingParentId),
      thread: c.thread.map(tweet),
      quoted: c.quoted ? tweet(c.quoted) : null,
      quoted_missing_id: c.quotedMissingId === null ? null : String(c.quotedMissingId),
      quotes_in_corpus: c.quotesInCorpus,
    };
  })();
}
