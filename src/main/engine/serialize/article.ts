import { type ArticleRow, type PostRow } from './rows';
import { type JsonObject, storedJson, tweetObject } from './tweet';
import { isoOffset } from './timestamps';
import { withBigIntMembers } from './json';

/** The `article` attribute (2.4); every timestamp in article details uses the `+00:00` form. */
export function articleObject(a: ArticleRow): JsonObject {
  const stored = storedJson(a.content_state_json, {});
  const cs = (stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {}) as JsonObject;
  const media = storedJson(a.media_entities_json, []);
  return withBigIntMembers({
    published_at: isoOffset(a.published_at_us),
    id: a.id,
    id_str: a.id.toString(),
    title: a.title,
    preview_text: a.preview_text,
    cover_url: a.cover_url,
    content_state: {
      ...cs,
      blocks: Array.isArray(cs.blocks) ? cs.blocks : [],
      entityMap: Array.isArray(cs.entityMap) ? cs.entityMap : [],
    },
    media_entities: Array.isArray(media) ? media : [],
  });
}

/** Article details (4.4): the Tweet in article shape plus created_at, user_id, user_screen_name, article. */
export function articleDetail(post: PostRow, article: ArticleRow): JsonObject {
  const t = tweetObject(post, 'article');
  t.created_at = isoOffset(post.created_at_us);
  t.user_id = post.user_id;
  t.user_screen_name = post.u_screen_name;
  t.article = articleObject(article);
  return t;
}
