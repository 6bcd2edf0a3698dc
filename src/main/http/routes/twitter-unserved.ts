import type { FastifyInstance, HTTPMethods } from 'fastify';
import { fail } from '../errors';

// The real service's endpoints that Skein does not serve: their data is not in a local corpus of
// posts, their authors' profiles, articles and spaces (followers, likes, lists, communities), or
// they watch the live platform (monitors). Each answers 404 in the spec's error body saying why,
// and where Skein has the data under another form, how to ask for it; rather than the generic
// "No endpoint", so a script written for the service learns at once what to change. Spec routes
// (a key is needed, the request counts against the rate limit) that are free: a 404 is never charged.

const FOLLOWS = "Skein answers from its local corpus (posts, their authors' profiles, articles and spaces) and holds no follower or following data.";
const LIKES = "Skein holds no likes, only each post's favorite_count.";
const RETWEETERS = "Skein holds no retweeters, only each post's retweet_count.";
const LISTS = 'Skein holds no lists.';
const COMMUNITIES = 'Skein holds no communities.';
const MONITORS = 'Skein has no monitors: it answers from its local corpus and does not watch the live platform.';
const PER_USER = 'Ask GET /twitter/user/<id or screen_name> for each user.';

/** [method, path (`:name` is one segment), why], by the service's sections. */
export const UNSERVED_TWITTER_ROUTES: readonly (readonly [method: HTTPMethods, path: string, why: string])[] = [
  // Users
  ['GET', '/twitter/user/:user_id/followers', FOLLOWS],
  ['GET', '/twitter/user/:user_id/verified-followers', FOLLOWS],
  ['GET', '/twitter/user/:user_id/following', FOLLOWS],
  ['GET', '/twitter/user/:user_id/following/:target_user_id', FOLLOWS],
  ['GET', '/twitter/followers/list', FOLLOWS],
  ['GET', '/twitter/friends/list', FOLLOWS],
  ['GET', '/twitter/user/:user_id/affiliates', 'Skein holds no affiliations between accounts.'],
  ['GET', '/twitter/user/:user_id/likes', LIKES],
  ['GET', '/twitter/user/:user_id/lists', LISTS],
  ['GET', '/twitter/user/:user_id/highlights', "Skein holds no profile's Highlights tab."],
  ['GET', '/twitter/user/:user_id/articles', 'Ask for an article by the id of the post that carries it: GET /twitter/article/<tweet_id>.'],
  ['GET', '/twitter/user/:username/extended-bio', "Skein holds a profile's description only: GET /twitter/user/<username>."],
  ['GET', '/twitter/user/:username/mentions', 'The posts mentioning a user are found with GET /twitter/search?query=@<username>.'],
  ['POST', '/twitter/users-by-ids', PER_USER],
  ['POST', '/twitter/users-by-usernames', PER_USER],
  // Tweets
  ['GET', '/twitter/tweets/:tweet_id/liking_users', LIKES],
  ['GET', '/twitter/tweets/:tweet_id/retweeted_by', RETWEETERS],
  ['GET', '/twitter/tweets/:tweet_id/retweeted_by/:user_id', RETWEETERS],
  [
    'GET',
    '/twitter/tweets/:tweet_id/comments',
    'The replies to a post are found with GET /twitter/search?query=conversation_id:<tweet_id>, or collected by POST /social/tweets/<tweet_id>/comments/asyncJob.',
  ],
  [
    'GET',
    '/twitter/tweets/:tweet_id/commented_by/:user_id',
    "A user's replies to a post are found with GET /twitter/search?query=conversation_id:<tweet_id> from:<screen_name>.",
  ],
  ['GET', '/twitter/tweets/:tweet_id/quotes', 'The posts quoting a post are found with GET /twitter/search?query=quoted_tweet_id:<tweet_id>.'],
  [
    'GET',
    '/twitter/thread/:thread_id',
    "A thread's posts are found with GET /twitter/search?query=conversation_id:<thread_id> from:<author's screen_name>.",
  ],
  // Lists and communities
  ['GET', '/twitter/list/:list_id', LISTS],
  ['GET', '/twitter/list/:list_id/members', LISTS],
  ['GET', '/twitter/list/:list_id/tweets', LISTS],
  ['GET', '/twitter/community/:community_id/members', COMMUNITIES],
  ['GET', '/twitter/community/:community_id/tweets', COMMUNITIES],
  // Monitors and their webhook (Skein's job webhook is set with 'skein webhooks' or in the app)
  ['POST', '/monitors/user-tweets', MONITORS],
  ['POST', '/monitors/user-following', MONITORS],
  ['POST', '/monitors/user-profile', MONITORS],
  ['POST', '/monitors/search-pump-fun', MONITORS],
  ['GET', '/monitors', MONITORS],
  ['GET', '/monitors/:monitor_id', MONITORS],
  ['PATCH', '/monitors/:monitor_id', MONITORS],
  ['DELETE', '/monitors/:monitor_id', MONITORS],
  ['POST', '/user/webhook', `${MONITORS} The webhook of Skein's jobs is set with 'skein webhooks set' or in the app's settings.`],
];

/** The endpoint as the message names it: `:name` written `<name>`. */
const shown = (method: string, path: string) => `${method} ${path.replace(/:(\w+)/g, '<$1>')}`;

export function registerUnservedTwitterRoutes(app: FastifyInstance): void {
  for (const [method, url, why] of UNSERVED_TWITTER_ROUTES) {
    const message = `Not served by Skein: ${shown(method, url)}. ${why}`;
    app.route({
      method,
      url,
      config: { spec: true, maxCost: 0 },
      handler: async () => {
        throw fail.notFound(message);
      },
    });
  }
}
