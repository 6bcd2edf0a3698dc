// Rows as the store gives them (migration 001) with safeIntegers on: every INTEGER is a bigint.
// reads/post-select.ts has the one SELECT that produces PostRow (post joined with its author).

type Int = bigint;

export interface PostRow {
  id: Int;
  user_id: Int;
  created_at_us: Int;
  full_text: string;
  source: string;
  truncated: Int;
  in_reply_to_status_id: Int | null;
  in_reply_to_user_id: Int | null;
  in_reply_to_screen_name: string | null;
  quoted_status_id: Int | null;
  is_quote_status: Int;
  quote_count: Int;
  reply_count: Int;
  retweet_count: Int;
  favorite_count: Int;
  views_count: Int;
  bookmark_count: Int;
  lang: string;
  entities_json: string;
  quoted_status_json: string | null;
  retweeted_status_json: string | null;
  // The author (social_users), prefixed u_.
  u_screen_name: string;
  u_name: string;
  u_location: string;
  u_url: string | null;
  u_description: string;
  u_protected: Int;
  u_verified: Int;
  u_followers_count: Int;
  u_friends_count: Int;
  u_listed_count: Int;
  u_favourites_count: Int;
  u_statuses_count: Int;
  u_created_at_us: Int;
  u_profile_banner_url: string;
  u_profile_image_url_https: string;
  u_can_dm: Int;
}

/** A post's author as PostRow carries it (columns prefixed u_): what serialize/tweet.ts's userObject reads. */
export type AuthorRow = Pick<
  PostRow,
  | 'user_id'
  | 'u_screen_name'
  | 'u_name'
  | 'u_location'
  | 'u_url'
  | 'u_description'
  | 'u_protected'
  | 'u_verified'
  | 'u_followers_count'
  | 'u_friends_count'
  | 'u_listed_count'
  | 'u_favourites_count'
  | 'u_statuses_count'
  | 'u_created_at_us'
  | 'u_profile_banner_url'
  | 'u_profile_image_url_https'
  | 'u_can_dm'
>;

export interface ArticleRow {
  id: Int;
  title: string;
  preview_text: string;
  cover_url: string;
  published_at_us: Int;
  content_state_json: string;
  media_entities_json: string;
}

export interface SpaceRow {
  id: string;
  state: string;
  title: string;
  media_key: string;
  created_at_ms: Int;
  scheduled_start_ms: Int | null;
  started_at_ms: Int | null;
  updated_at_ms: Int | null;
  ended_at_ms: Int | null;
  disallow_join: Int;
  is_employee_only: Int;
  is_locked: Int;
  is_space_available_for_replay: Int;
  is_space_available_for_clipping: Int;
  narrow_cast_space_type: Int;
  conversation_controls: Int;
  total_replay_watched: Int;
  total_live_listeners: Int;
  creator_json: string;
}

/** SQLite booleans are 0/1 integers. */
export const bool = (v: bigint | number | null | undefined): boolean => v !== null && v !== undefined && Number(v) !== 0;

/** Counters fit a double by far (a post has fewer than 2^53 likes): written as plain numbers. */
export const count = (v: bigint | number): number => Number(v);

/** An id's string form, or null. */
export const str = (v: bigint | null): string | null => (v === null ? null : v.toString());
