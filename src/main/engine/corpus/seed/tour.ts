// The tour: notable ids of a seeded corpus, printed by `skein seed` and offered by the home
// screen. Ids are strings (exact digits). Kept in corpus_meta under the key `tour`.
export interface TourPost {
  id_str: string;
  screen_name: string;
  note: string;
}

export interface Tour {
  seed: number;
  scale: string;
  users: number;
  posts: number;
  protected_user: { id_str: string; screen_name: string; note: string };
  article_post: TourPost & { title: string };
  space: { id: string; title: string; creator_screen_name: string; note: string };
  large_conversation_root: TourPost & { replies: number };
  self_thread_root: TourPost;
  quote_post: TourPost & { quoted_id_str: string };
  deep_reply: TourPost & { depth: number };
  spam_reply: TourPost;
  wallet_reply: TourPost;
  ids_above_2_53: { user_id_str: string; post_id_str: string; note: string };
  small_id_user: { id_str: string; screen_name: string; note: string };
}
