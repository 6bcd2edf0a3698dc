export { seedCorpus, type SeedOptions } from './write';
export { generateCorpus, type SeedSink } from './generate';
export { SCALES, SCALE_NAMES, isScale, seedBytesNeeded, type Scale, CORPUS_END_MS } from './scales';
export type { Tour } from './tour';
export { DEMO_SEED, loadDemoOnFirstStart } from './first-start';
export { demoState, seedsOf, type DemoState, type SeedRecord } from './record';
export { REMOVABLE_SEED_POSTS, removableSeeds, removeSeededData, type SeedRemoval } from './remove';
