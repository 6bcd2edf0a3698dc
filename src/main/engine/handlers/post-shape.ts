import type { ReplyShape, UserTopPosts } from '../../../shared/contract';
import type { Engine } from '../engine';
import { replyShape } from '../reads/reply-shape';
import { userTopPosts } from '../reads/user-top-posts';
import { idArg, record } from './validate';
import { jsonSafe } from './wire';

// The pictures' reads of the corpus (issue 16): the reply tree's shape on a post's page, a user's
// top posts on their page. Local only, like post.context: the post page's reply list is what
// fetches the conversation through an upstream first, and the picture reads what it stored.

export function postReplyShape(engine: Engine, raw: unknown): ReplyShape {
  return replyShape(engine.db, BigInt(idArg(record(raw), 'id')));
}

export function topPostsOf(engine: Engine, raw: unknown): UserTopPosts {
  const top = userTopPosts(engine.db, BigInt(idArg(record(raw), 'user_id')));
  return jsonSafe<UserTopPosts>(top);
}
