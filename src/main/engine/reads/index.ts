// The read operations behind spec 4.1-4.5, free of Fastify: the HTTP routes and the desktop app's
// IPC handlers call the same functions with the request's raw strings.
export { readTimeline, readTimelineJson, checkTimelineRequest, type TimelinePage, type TimelineKind } from './timeline';
export { parseNumericId, parseSpaceId } from './params';
export { readTweet, readTweetJson, readArticle, readSpace, findPost } from './details';
export { POST_SELECT } from './post-select';
export { TIMELINE_PAGE_SIZE } from './statements';
export type { JsonReadResult, ReadResult } from './result';
