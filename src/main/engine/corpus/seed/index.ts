import type { Engine } from '../../engine';
import type { Db } from '../../store/db';
import { getTour } from '../summary';
import type { Tour } from './tour';
import { seedCorpus } from './write';

export { seedCorpus, type SeedOptions } from './write';
export { generateCorpus, type SeedSink } from './generate';
export { SCALES, SCALE_NAMES, isScale, seedBytesNeeded, type Scale, CORPUS_END_MS } from './scales';
export type { Tour } from './tour';

/** The seed of the corpus a first start shows; the same on every machine. */
export const DEMO_SEED = 1;

/**
 * Loads the demo corpus (about 200 users, 20,000 posts) when the corpus has no users yet, so a
 * first start has something to show. Call once at start before serving; an analyst's own corpus is
 * never touched.
 */
export function seedDemoIfEmpty(engine: Pick<Engine, 'db'> | { db: Db }): { seeded: boolean; tour: Tour | null } {
  const db = engine.db;
  if (db.prepare('SELECT 1 FROM social_users LIMIT 1').get()) return { seeded: false, tour: getTour(db) };
  return { seeded: true, tour: seedCorpus(db, { scale: 'demo', seed: DEMO_SEED }) };
}
