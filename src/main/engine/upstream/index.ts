export * from './config';
export * from './errors';
export * from './key-source';
export { UpstreamLimiter, realSleep, UPSTREAM_WINDOW_MS, type Sleep, type Reservation } from './limiter';
export * from './spend';
export { upstreamPaths, type UpstreamPaths } from './paths';
export * from './client';
