import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db';
import { DETAIL_TWEET_JSON, TIMELINE_TWEET_JSON } from '../serialize/tweet-json-sql';
import { POST_FROM, POST_SELECT } from './post-select';

// The reads' prepared statements, made once per connection: preparing costs more than running
// a one-row lookup. Every statement reads integers as BigInt, so ids stay exact.
export interface ReadStatements {
  user: Statement;
  timelineAll: Statement;
  timelineTweets: Statement;
  /** The same pages as [id, timeline Tweet JSON text] rows (serialize/tweet-json-sql.ts): the HTTP answer. */
  timelineAllJson: Statement;
  timelineTweetsJson: Statement;
  post: Statement;
  /** One post's detail Tweet as JSON text (pluck: the string itself), null when its author is protected, or undefined. */
  postJson: Statement;
  article: Statement;
  space: Statement;
}

export const TIMELINE_PAGE_SIZE = 20;

const cache = new WeakMap<Db, ReadStatements>();

export function statements(db: Db): ReadStatements {
  let s = cache.get(db);
  if (!s) {
    const prep = (sql: string) => db.prepare(sql).safeIntegers(true);
    // Post statements read arrays, turned into PostRow by postRowOf (post-select.ts says why).
    const prepRaw = (sql: string) => prep(sql).raw(true);
    s = {
      user: prep('SELECT id, protected FROM social_users WHERE id = ?'),
      // Newest first by id (ids are time-ordered snowflakes): one range scan of
      // posts_user_timeline / the partial index posts_user_tweets, no sort.
      timelineAll: prepRaw(`${POST_SELECT} WHERE p.user_id = ? AND p.id <= ? ORDER BY p.id DESC LIMIT ${TIMELINE_PAGE_SIZE}`),
      timelineTweets: prepRaw(
        `${POST_SELECT} WHERE p.user_id = ? AND p.in_reply_to_status_id IS NULL AND p.id <= ? ORDER BY p.id DESC LIMIT ${TIMELINE_PAGE_SIZE}`,
      ),
      timelineAllJson: prepRaw(`SELECT p.id, ${TIMELINE_TWEET_JSON} ${POST_FROM} WHERE p.user_id = ? AND p.id <= ? ORDER BY p.id DESC LIMIT ${TIMELINE_PAGE_SIZE}`),
      timelineTweetsJson: prepRaw(
        `SELECT p.id, ${TIMELINE_TWEET_JSON} ${POST_FROM} WHERE p.user_id = ? AND p.in_reply_to_status_id IS NULL AND p.id <= ? ORDER BY p.id DESC LIMIT ${TIMELINE_PAGE_SIZE}`,
      ),
      post: prepRaw(`${POST_SELECT} WHERE p.id = ?`),
      // NULL for a protected author's post (details.ts answers 404 saying why); CASE builds the
      // JSON only for the others.
      postJson: prep(`SELECT CASE WHEN u.protected = 1 THEN NULL ELSE ${DETAIL_TWEET_JSON} END ${POST_FROM} WHERE p.id = ?`).pluck(),
      article: prep(
        'SELECT id, title, preview_text, cover_url, published_at_us, content_state_json, media_entities_json FROM articles WHERE post_id = ?',
      ),
      space: prep(`SELECT id, state, title, media_key, created_at_ms, scheduled_start_ms, started_at_ms, updated_at_ms,
        ended_at_ms, disallow_join, is_employee_only, is_locked, is_space_available_for_replay,
        is_space_available_for_clipping, narrow_cast_space_type, conversation_controls, total_replay_watched,
        total_live_listeners, creator_json FROM spaces WHERE id = ?`),
    };
    cache.set(db, s);
  }
  return s;
}
