import type { Db } from '../../store/db';
import { upsertArticleDetails } from '../write/article';
import { BulkWriter } from '../write/bulk';
import { upsertSpace } from '../write/space';
import { upsertTweet } from '../write/tweet';
import { upsertUser } from '../write/user';
import { generateCorpus } from './generate';
import { CORPUS_END_MS, type Scale, SCALES } from './scales';
import type { Tour } from './tour';
import { recordSeed } from './record';

// Writes a generated corpus through the same write path as the importers, in transactions of
// BATCH records: each commit is short (the API and the CLI keep reading in WAL mode) and a crash
// loses at most one batch, which the next seed run (or seedDemoIfEmpty) never half-reuses because
// the tour, written last, is what marks a corpus as complete.
//
// 10,000 records per batch (was 2,000) and a WAL checkpoint per 64 MiB of WAL (SQLite's default is
// 4 MiB, which a 2,000-post batch passed at every commit, so every commit also copied its pages
// into the database and fsynced it): a batch dirties the same hot index pages (the newest leaf of
// every index, each account's leaf in the timeline index) whatever its size, so fewer, larger
// batches and checkpoints write each of those pages fewer times. See docs/decisions.md "Seed:
// 10,000,000 posts" for the numbers. A batch holds the write lock ~1-2 s, well inside the 5 s
// busy timeout of a CLI or app writing next to it.
const BATCH = 10_000;
const SEED_WAL_CHECKPOINT_BYTES = 64 * 1024 * 1024;

export interface SeedOptions {
  scale: Scale;
  seed: number;
  /** Called after each committed batch with the posts written so far and the total. */
  onProgress?: (posts: number, total: number) => void;
}

export function seedCorpus(db: Db, options: SeedOptions): Tour {
  const retrievedAtMs = CORPUS_END_MS;
  const total = SCALES[options.scale].posts;
  let posts = 0;
  // Replies and quotes come after their targets: the targets' counters are raised per batch, and
  // only for replies and quotes this run added, so seeding twice never counts twice.
  const replies = new Map<string, number>();
  const quotes = new Map<string, number>();
  const raise = {
    reply: db.prepare('UPDATE posts SET reply_count = reply_count + ? WHERE id = ?'),
    quote: db.prepare('UPDATE posts SET quote_count = quote_count + ? WHERE id = ?'),
  };
  const raiseCounters = () => {
    for (const [id, n] of replies) raise.reply.run(n, BigInt(id));
    for (const [id, n] of quotes) raise.quote.run(n, BigInt(id));
    replies.clear();
    quotes.clear();
  };
  const count = (t: Record<string, unknown>) => {
    const parent = t.in_reply_to_status_id_str;
    if (typeof parent === 'string') replies.set(parent, (replies.get(parent) ?? 0) + 1);
    const quoted = t.quoted_status_id_str;
    if (typeof quoted === 'string') quotes.set(quoted, (quotes.get(quoted) ?? 0) + 1);
  };
  const bulk = new BulkWriter(db, BATCH, () => options.onProgress?.(posts, total), raiseCounters);
  // A larger page cache while writing many rows, so the indexes' hot pages stay in memory, and
  // fewer checkpoints; both restored afterwards for the shared connection.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  const autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`cache_size = -${seedCacheKib(options.scale)}`);
  // 0 means "never" (a connection whose checkpoints run elsewhere, store/wal-checkpointer.ts): kept.
  if (autocheckpoint > 0) db.pragma(`wal_autocheckpoint = ${Math.max(autocheckpoint, Math.floor(SEED_WAL_CHECKPOINT_BYTES / pageSize))}`);
  bulk.begin();
  try {
    const tour = generateCorpus(options, {
      user: (u) => {
        upsertUser(db, u, { retrievedAtMs });
        bulk.step();
      },
      tweet: (t) => {
        if (upsertTweet(db, t, { retrievedAtMs, userStored: true }) === 'added') count(t);
        posts++;
        bulk.step();
      },
      article: (a) => {
        upsertArticleDetails(db, a, { retrievedAtMs, userStored: true });
        posts++;
        bulk.step();
      },
      space: (s) => {
        upsertSpace(db, s, { retrievedAtMs });
        bulk.step();
      },
    });
    const meta = db.prepare('INSERT INTO corpus_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    meta.run('tour', JSON.stringify(tour));
    recordSeed(db, { scale: options.scale, seed: options.seed });
    bulk.commit();
    options.onProgress?.(posts, total);
    return tour;
  } catch (err) {
    bulk.abort();
    throw err;
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  }
}

/**
 * The page cache while seeding (KiB): 64 MiB up to the large corpus, whose hot index pages fit in
 * it; 512 MiB for xl, whose 20,000 accounts keep 20,000 leaves of each per-account index hot.
 */
function seedCacheKib(scale: Scale): number {
  return scale === 'xl' ? 512 * 1024 : 64 * 1024;
}

/**
 * The same counters in one pass over a freshly written corpus (the benchmark's bare baseline):
 * reply_count = replies in the corpus + the hidden ones the generator set (the platform counts
 * replies a collection cannot return).
 */
export function finishCounters(db: Db): void {
  db.exec(`
    UPDATE posts SET reply_count = reply_count + r.n
    FROM (SELECT in_reply_to_status_id AS id, count(*) AS n FROM posts WHERE in_reply_to_status_id IS NOT NULL GROUP BY 1) AS r
    WHERE posts.id = r.id;
    UPDATE posts SET quote_count = quote_count + q.n
    FROM (SELECT quoted_status_id AS id, count(*) AS n FROM posts WHERE quoted_status_id IS NOT NULL GROUP BY 1) AS q
    WHERE posts.id = q.id;`);
}
