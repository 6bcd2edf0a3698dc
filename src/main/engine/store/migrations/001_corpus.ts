// Migration 001. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- The corpus: social users, posts, articles and spaces, as the service returns them.
-- Ids are SQLite INTEGERs (64-bit) and are read back as BigInt, so no id ever passes through a
-- JS number. Timestamps are integers: microseconds for posts and users (the spec prints six
-- fractional digits), milliseconds for spaces (the spec prints epoch milliseconds).
-- raw_json keeps whatever a source gave that we do not model, so nothing is lost on import.

CREATE TABLE social_users (
  id                      INTEGER PRIMARY KEY,
  screen_name             TEXT    NOT NULL,
  screen_name_lower       TEXT    NOT NULL,
  name                    TEXT    NOT NULL DEFAULT '',
  location                TEXT    NOT NULL DEFAULT '',
  url                     TEXT,
  description             TEXT    NOT NULL DEFAULT '',
  protected               INTEGER NOT NULL DEFAULT 0,
  verified                INTEGER NOT NULL DEFAULT 0,
  followers_count         INTEGER NOT NULL DEFAULT 0,
  friends_count           INTEGER NOT NULL DEFAULT 0,
  listed_count            INTEGER NOT NULL DEFAULT 0,
  favourites_count        INTEGER NOT NULL DEFAULT 0,
  statuses_count          INTEGER NOT NULL DEFAULT 0,
  created_at_us           INTEGER NOT NULL,
  profile_banner_url      TEXT    NOT NULL DEFAULT '',
  profile_image_url_https TEXT    NOT NULL DEFAULT '',
  can_dm                  INTEGER NOT NULL DEFAULT 0,
  raw_json                TEXT,
  retrieved_at_ms         INTEGER NOT NULL
);
CREATE INDEX social_users_screen_name ON social_users (screen_name_lower);

CREATE TABLE posts (
  id                      INTEGER PRIMARY KEY,
  user_id                 INTEGER NOT NULL REFERENCES social_users (id),
  created_at_us           INTEGER NOT NULL,
  full_text               TEXT    NOT NULL,
  source                  TEXT    NOT NULL DEFAULT '',
  truncated               INTEGER NOT NULL DEFAULT 0,
  in_reply_to_status_id   INTEGER,
  in_reply_to_user_id     INTEGER,
  in_reply_to_screen_name TEXT,
  quoted_status_id        INTEGER,
  is_quote_status         INTEGER NOT NULL DEFAULT 0,
  quote_count             INTEGER NOT NULL DEFAULT 0,
  reply_count             INTEGER NOT NULL DEFAULT 0,
  retweet_count           INTEGER NOT NULL DEFAULT 0,
  favorite_count          INTEGER NOT NULL DEFAULT 0,
  views_count             INTEGER NOT NULL DEFAULT 0,
  bookmark_count          INTEGER NOT NULL DEFAULT 0,
  lang                    TEXT    NOT NULL DEFAULT 'und',
  -- The Entities object verbatim (indices included); the search tables below index its parts.
  entities_json           TEXT    NOT NULL DEFAULT '{"user_mentions":[],"urls":[],"hashtags":[],"symbols":[]}',
  quoted_status_json      TEXT,
  retweeted_status_json   TEXT,
  -- The root of the conversation; a root is its own conversation.
  conversation_id         INTEGER NOT NULL,
  -- 0 for a root, 1 for a direct reply, 2 for a reply to a direct reply, and so on.
  reply_depth             INTEGER NOT NULL DEFAULT 0,
  has_links               INTEGER NOT NULL DEFAULT 0,
  has_media               INTEGER NOT NULL DEFAULT 0,
  raw_json                TEXT,
  retrieved_at_ms         INTEGER NOT NULL
);
-- Timelines are newest first: "tweets-and-replies" walks (user_id, id DESC), "tweets" the partial
-- index without replies, so each page is one index range scan.
CREATE INDEX posts_user_timeline ON posts (user_id, id DESC);
CREATE INDEX posts_user_tweets ON posts (user_id, id DESC) WHERE in_reply_to_status_id IS NULL;
-- "Direct and second-level replies of post X": one range scan on (conversation_id, reply_depth).
CREATE INDEX posts_conversation ON posts (conversation_id, reply_depth, id DESC);
CREATE INDEX posts_in_reply_to ON posts (in_reply_to_status_id) WHERE in_reply_to_status_id IS NOT NULL;
CREATE INDEX posts_quoted ON posts (quoted_status_id) WHERE quoted_status_id IS NOT NULL;

-- Entity parts, lower-cased, for the search operators (#tag, $cash, @mention, url:).
CREATE TABLE post_hashtags (post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE, tag TEXT NOT NULL, PRIMARY KEY (tag, post_id)) WITHOUT ROWID;
CREATE TABLE post_symbols  (post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE, symbol TEXT NOT NULL, PRIMARY KEY (symbol, post_id)) WITHOUT ROWID;
CREATE TABLE post_mentions (post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE, screen_name TEXT NOT NULL, PRIMARY KEY (screen_name, post_id)) WITHOUT ROWID;
CREATE TABLE post_urls     (post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE, url TEXT NOT NULL, PRIMARY KEY (url, post_id)) WITHOUT ROWID;
CREATE INDEX post_hashtags_post ON post_hashtags (post_id);
CREATE INDEX post_symbols_post ON post_symbols (post_id);
CREATE INDEX post_mentions_post ON post_mentions (post_id);
CREATE INDEX post_urls_post ON post_urls (post_id);

-- Full text over post text, an external-content FTS5 table kept in step by triggers, so every
-- insert, update and delete of a post is reflected in the same transaction.
CREATE VIRTUAL TABLE posts_fts USING fts5 (full_text, content = 'posts', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts BEGIN
  INSERT INTO posts_fts (rowid, full_text) VALUES (new.id, new.full_text);
END;
CREATE TRIGGER posts_fts_delete AFTER DELETE ON posts BEGIN
  INSERT INTO posts_fts (posts_fts, rowid, full_text) VALUES ('delete', old.id, old.full_text);
END;
CREATE TRIGGER posts_fts_update AFTER UPDATE OF full_text ON posts BEGIN
  INSERT INTO posts_fts (posts_fts, rowid, full_text) VALUES ('delete', old.id, old.full_text);
  INSERT INTO posts_fts (rowid, full_text) VALUES (new.id, new.full_text);
END;

-- A long-form article carried by a post (article details, spec 2.4).
CREATE TABLE articles (
  post_id             INTEGER PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
  id                  INTEGER NOT NULL,
  title               TEXT    NOT NULL,
  preview_text        TEXT    NOT NULL DEFAULT '',
  cover_url           TEXT    NOT NULL DEFAULT '',
  published_at_us     INTEGER NOT NULL,
  content_state_json  TEXT    NOT NULL,
  media_entities_json TEXT    NOT NULL DEFAULT '[]',
  raw_json            TEXT,
  retrieved_at_ms     INTEGER NOT NULL
);

-- Audio spaces (spec 2.5). The creator object is kept whole: its shape (legacy,
-- affiliates_highlighted_label) is the platform's, not a corpus user's.
CREATE TABLE spaces (
  id                              TEXT    PRIMARY KEY,
  state                           TEXT    NOT NULL,
  title                           TEXT    NOT NULL DEFAULT '',
  media_key                       TEXT    NOT NULL DEFAULT '',
  created_at_ms                   INTEGER NOT NULL,
  scheduled_start_ms              INTEGER,
  started_at_ms                   INTEGER,
  updated_at_ms                   INTEGER,
  ended_at_ms                     INTEGER,
  disallow_join                   INTEGER NOT NULL DEFAULT 0,
  is_employee_only                INTEGER NOT NULL DEFAULT 0,
  is_locked                       INTEGER NOT NULL DEFAULT 0,
  is_space_available_for_replay   INTEGER NOT NULL DEFAULT 0,
  is_space_available_for_clipping INTEGER NOT NULL DEFAULT 0,
  narrow_cast_space_type          INTEGER NOT NULL DEFAULT 0,
  conversation_controls           INTEGER NOT NULL DEFAULT 0,
  total_replay_watched            INTEGER NOT NULL DEFAULT 0,
  total_live_listeners            INTEGER NOT NULL DEFAULT 0,
  creator_id                      TEXT    NOT NULL,
  creator_json                    TEXT    NOT NULL,
  raw_json                        TEXT,
  retrieved_at_ms                 INTEGER NOT NULL
);
CREATE INDEX spaces_creator ON spaces (creator_id);

-- Small facts about the corpus itself (the demo tour, the seed that made it).
CREATE TABLE corpus_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;
