import type { Db } from '../../store/db';
import { isScale, type Scale } from './scales';

// What corpus_meta records about generated (demo) data: which seeds wrote into the corpus, so they
// can be removed again, and what the data dir's first start decided about the demo corpus.

export interface SeedRecord {
  scale: Scale;
  seed: number;
}

/**
 * What the data dir's first start decided about the demo corpus (corpus_meta `demo`): loading (it
 * began; a start that finds this loads it again, as seeding the same seed twice changes nothing),
 * loaded, declined (`--no-demo`, or the data dir already held records or an upstream source) or
 * removed.
 */
export type DemoState = 'loading' | 'loaded' | 'declined' | 'removed';
const DEMO_STATES: readonly string[] = ['loading', 'loaded', 'declined', 'removed'] satisfies DemoState[];

const get = (db: Db, key: string) => db.prepare('SELECT value FROM corpus_meta WHERE key = ?').pluck().get(key) as string | undefined;
const put = (db: Db, key: string, value: string) =>
  db.prepare('INSERT INTO corpus_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);

export function demoState(db: Db): DemoState | null {
  const value = get(db, 'demo');
  return value !== undefined && DEMO_STATES.includes(value) ? (value as DemoState) : null;
}

export function setDemoState(db: Db, state: DemoState): void {
  put(db, 'demo', state);
}

/**
 * Every seed written into the corpus, oldest first (corpus_meta `seeds`). A corpus seeded before
 * the list existed has its one seed under `seed`.
 */
export function seedsOf(db: Db): SeedRecord[] {
  const list = parse(get(db, 'seeds'));
  const raw = Array.isArray(list) ? list : list === undefined ? [parse(get(db, 'seed'))].filter((s) => s !== undefined) : [];
  return raw.flatMap((s: unknown) => {
    const { scale, seed } = (s ?? {}) as { scale?: unknown; seed?: unknown };
    return typeof scale === 'string' && isScale(scale) && Number.isInteger(seed) ? [{ scale, seed: seed as number }] : [];
  });
}

/** Adds a seed to the list (once: seeding the same seed again writes nothing new). */
export function recordSeed(db: Db, record: SeedRecord): void {
  const seeds = seedsOf(db).filter((s) => s.scale !== record.scale || s.seed !== record.seed);
  put(db, 'seeds', JSON.stringify([...seeds, record]));
  db.prepare("DELETE FROM corpus_meta WHERE key = 'seed'").run();
}

/** After a removal: the seeds still in the corpus. The tour goes with the seed that wrote it. */
export function keepSeeds(db: Db, seeds: readonly SeedRecord[]): void {
  const tour = parse(get(db, 'tour')) as { scale?: unknown; seed?: unknown } | undefined;
  if (!seeds.some((s) => s.scale === tour?.scale && s.seed === tour?.seed)) db.prepare("DELETE FROM corpus_meta WHERE key = 'tour'").run();
  if (seeds.length > 0) put(db, 'seeds', JSON.stringify(seeds));
  else db.prepare("DELETE FROM corpus_meta WHERE key IN ('seeds', 'seed')").run();
}

function parse(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}
