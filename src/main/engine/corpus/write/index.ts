// The write side of the corpus: the service's own JSON objects in, rows out. Every importer maps
// its source to these shapes and calls these functions, so there is one write path.
export { upsertTweet, type WriteOptions } from './tweet';
export { upsertArticleDetails } from './article';
export { upsertSpace } from './space';
export { upsertUser, upsertUserRow, userRow } from './user';
export type { Outcome } from './upsert';
export { CorpusInputError } from './input-error';
export { parseJsonExact, stringifyExact, isRecord } from './json';
export { parseTimestampUs, formatMicroZ, formatOffset, formatV1 } from './time';
