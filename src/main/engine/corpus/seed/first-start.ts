import type { Db } from '../../store/db';
import { getTour } from '../summary';
import { demoState, seedsOf, setDemoState } from './record';
import type { Tour } from './tour';
import { seedCorpus } from './write';

/** The seed of the corpus a first start shows; the same on every machine. */
export const DEMO_SEED = 1;

/**
 * The demo corpus (about 200 users, 20,000 posts) on a data dir's first start, so there is
 * something to browse at once; `wanted: false` is `--no-demo`. The decision is recorded
 * (record.ts), so the data dir never gets the demo later. Before, every start on an empty corpus
 * loaded it: a data dir started with `--no-demo` and set up as a gateway to the real service got
 * 20,000 fictional posts mixed into its corpus at its next plain start (found using it;
 * docs/decisions.md "Corpus: the demo corpus only at a data dir's first start, and removable"). A
 * data dir that already holds records, or has an upstream source set (`skein upstream set` before
 * the first start), is an analyst's: it gets no demo either.
 */
export function loadDemoOnFirstStart(db: Db, options: { wanted: boolean }): { seeded: boolean; tour: Tour | null } {
  const state = demoState(db);
  // 'loading': a start that began the demo stopped before its end; the same seed again completes it.
  if (state !== null && (state !== 'loading' || !options.wanted)) return { seeded: false, tour: getTour(db) };
  if (state === null) {
    const hasRecords = db.prepare('SELECT 1 FROM social_users LIMIT 1').get() !== undefined;
    const hasUpstream = db.prepare('SELECT 1 FROM upstream_config').get() !== undefined;
    if (!options.wanted || hasRecords || hasUpstream) {
      // A data dir from before this record whose start loaded the demo: it counts as loaded.
      const demoThere = seedsOf(db).some((s) => s.scale === 'demo' && s.seed === DEMO_SEED);
      setDemoState(db, demoThere ? 'loaded' : 'declined');
      return { seeded: false, tour: getTour(db) };
    }
    setDemoState(db, 'loading');
  }
  const tour = seedCorpus(db, { scale: 'demo', seed: DEMO_SEED });
  setDemoState(db, 'loaded');
  return { seeded: true, tour };
}
