import { fail } from '../../errors';
import type { Db } from '../../store/db';
import { generateCorpus } from './generate';
import { demoState, keepSeeds, type SeedRecord, seedsOf, setDemoState } from './record';
import { CORPUS_END_MS, SCALES } from './scales';

// Removes generated (demo) data from the corpus: the demo corpus a first start loaded, and what
// `skein seed` wrote at the demo's size or smaller. An analyst who opened the app once (the desktop
// app always loads the demo) and then imported real data or fetched it from an upstream had 20,000
// fictional posts in every search, overview and export, with no way to take them out short of a
// new data dir, which loses keys, credits and jobs (found using it; docs/decisions.md "Corpus: the
// demo corpus only at a data dir's first start, and removable").
//
// Which records: the seeds are deterministic, so each recorded seed is generated again and its ids
// collected. A record goes only while it is still the seed's copy: every seeded record was stored
// with retrieved_at_ms = CORPUS_END_MS, and a newer copy of the same id (imported or fetched since)
// replaced it with its own time, so it stays. A seeded user stays while a post the corpus keeps is
// by them. Jobs, their files and the ledger are not touched; a job's overview counts the posts the
// corpus still holds.

/** A seed of more posts (large, xl: benchmark corpora) is not removed here: a new data dir is quicker. */
export const REMOVABLE_SEED_POSTS = 20_000;
/** Posts per transaction: each holds the write lock ~100 ms (20 indexes and the full-text index per post). */
const POSTS_PER_BATCH = 1_000;

export interface SeedRemoval {
  removed: { users: number; posts: number; articles: number; spaces: number };
  /** Seeded ids whose record a newer copy (an import, an upstream read) replaced since: kept. */
  kept: { users: number; posts: number; spaces: number };
  /** Seeds too large to remove here; they stay. */
  left: SeedRecord[];
}

export interface RemovalOptions {
  /** Runs each transaction (the app: once the write lock is free, off the event loop); default: at once. */
  write?: <T>(fn: () => T) => Promise<T> | T;
}

/** Whether the corpus holds generated data this can remove. */
export function removableSeeds(db: Db): SeedRecord[] {
  return seedsOf(db).filter(removable);
}

const removable = (s: SeedRecord) => SCALES[s.scale].posts <= REMOVABLE_SEED_POSTS;

export async function removeSeededData(db: Db, options: RemovalOptions = {}): Promise<SeedRemoval> {
  const write = options.write ?? (<T>(fn: () => T) => fn());
  const seeds = seedsOf(db);
  const toRemove = seeds.filter(removable);
  if (toRemove.length === 0) {
    throw fail.notFound(
      seeds.length === 0
        ? 'The corpus holds no demo data: nothing was seeded into it, or it was removed already.'
        : `The corpus holds only generated data of more than ${REMOVABLE_SEED_POSTS.toLocaleString('en-US')} posts (${describe(seeds)}): start a new data dir instead.`,
    );
  }
  const running = db.prepare("SELECT count(*) FROM jobs WHERE status IN ('pending', 'processing')").pluck().get() as number;
  if (running > 0) {
    throw fail.conflict(`${running} ${running === 1 ? 'job is' : 'jobs are'} still collecting; removing the demo data now would change what ${running === 1 ? 'it writes' : 'they write'}. Try again once ${running === 1 ? 'it has' : 'they have'} ended, or cancel ${running === 1 ? 'it' : 'them'}.`);
  }

  const ids = { users: new Set<string>(), posts: new Set<string>(), spaces: new Set<string>() };
  for (const s of toRemove) {
    generateCorpus(s, {
      user: (u) => void ids.users.add(String(u.id_str)),
      tweet: (t) => void ids.posts.add(String(t.id_str)),
      article: (a) => void ids.posts.add(String(a.id_str)), // the article's post; the article goes with it (ON DELETE CASCADE)
      space: (sp) => void ids.spaces.add(String(sp.id)),
    });
  }

  const result: SeedRemoval = { removed: { users: 0, posts: 0, articles: 0, spaces: 0 }, kept: { users: 0, posts: 0, spaces: 0 }, left: seeds.filter((s) => !removable(s)) };
  // A post goes with its article, hashtags, mentions, links and full-text row (ON DELETE CASCADE, trigger).
  const postCopy = db.prepare('SELECT retrieved_at_ms AS at, EXISTS (SELECT 1 FROM articles WHERE post_id = posts.id) AS article FROM posts WHERE id = ?');
  const deletePost = db.prepare('DELETE FROM posts WHERE id = ?');
  const deleteUser = db.prepare('DELETE FROM social_users WHERE id = ? AND retrieved_at_ms = ? AND NOT EXISTS (SELECT 1 FROM posts WHERE user_id = ?)');
  const deleteSpace = db.prepare('DELETE FROM spaces WHERE id = ? AND retrieved_at_ms = ?');
  const exists = {
    user: db.prepare('SELECT 1 FROM social_users WHERE id = ?').pluck(),
    space: db.prepare('SELECT 1 FROM spaces WHERE id = ?').pluck(),
  };

  const posts = [...ids.posts];
  for (let i = 0; i < posts.length; i += POSTS_PER_BATCH) {
    const batch = posts.slice(i, i + POSTS_PER_BATCH).map(BigInt);
    await write(() =>
      db.transaction(() => {
        for (const id of batch) {
          const copy = postCopy.get(id) as { at: number; article: number } | undefined;
          if (copy === undefined) continue;
          if (copy.at !== CORPUS_END_MS) {
            result.kept.posts++;
            continue;
          }
          deletePost.run(id);
          result.removed.posts++;
          result.removed.articles += copy.article;
        }
      }).immediate(),
    );
  }
  await write(() =>
    db.transaction(() => {
      for (const raw of ids.spaces) {
        if (deleteSpace.run(raw, CORPUS_END_MS).changes === 1) result.removed.spaces++;
        else if (exists.space.get(raw) !== undefined) result.kept.spaces++;
      }
      for (const raw of ids.users) {
        const id = BigInt(raw);
        if (deleteUser.run(id, CORPUS_END_MS, id).changes === 1) result.removed.users++;
        else if (exists.user.get(id) !== undefined) result.kept.users++;
      }
      keepSeeds(db, result.left);
      const state = demoState(db);
      if (state === 'loaded' || state === 'loading') setDemoState(db, 'removed');
    }).immediate(),
  );
  return result;
}

const describe = (seeds: readonly SeedRecord[]) => seeds.map((s) => `skein seed --scale ${s.scale} --seed ${s.seed}`).join(', ');
