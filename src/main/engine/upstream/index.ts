export * from './config';
export * from './errors';
export * from './key-source';
export { UpstreamLimiter, sharedUpstreamLimiter, realSleep, UPSTREAM_WINDOW_MS, type Sleep } from './limiter';
export { upstreamPaths, type UpstreamPaths } from './paths';
export * from './client';
