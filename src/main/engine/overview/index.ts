// Overviews of a set of posts (issue 16): see overview.ts.
export { computeOverview, OVERVIEW_CAP, DEFAULT_TOP, MAX_TOP, type OverviewResult, type OverviewOptions, type Counted } from './overview';
export { matchSql, type OverviewScope } from './match';
export { BUCKETS, MAX_BUCKETS, autoBucket, type Bucket } from './buckets';
