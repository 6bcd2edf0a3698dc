// The spec's JSON (section 2): one place that knows field order, id forms and timestamp forms.
export { toJson, parseJsonExact, RawJson } from './json';
export { isoMicros, isoOffset, twitterDate } from './timestamps';
export { tweetObject, timelineTweet, detailTweet, userObject, entitiesObject, type TweetShape, type JsonObject } from './tweet';
export { articleObject, articleDetail } from './article';
export { spaceObject } from './space';
export type { PostRow, ArticleRow, SpaceRow } from './rows';
