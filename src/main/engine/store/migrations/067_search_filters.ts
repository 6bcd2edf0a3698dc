// Migration 067: indexes for the search operators that had none (issue 17: `lang:`, counters,
// `filter:`), so a query made only of them finds rare matches without reading every post. The
// search compiler picks the most selective of them (search/sources.ts); EXPLAIN QUERY PLAN tests
// in test/unit/search-sources.test.ts pin their use. Sizes at the 1M-post bench corpus in
// docs/decisions.md "Search: indexes for filters, and a planner that picks the selective side".
export default /* sql */ `
-- lang: (16 B a post). One language's posts in id order, so a Latest page is a range that stops
-- after its rows. NOCASE because the operator compares without case.
CREATE INDEX posts_lang ON posts (lang COLLATE NOCASE);

-- min_faves:, min_retweets:, min_replies: from 10 up. Below 10 most posts match and reading
-- posts newest first finds a page at once; from 10 up the matches can be rare, and only posts at
-- or above 10 are indexed (21% of posts for likes in the bench corpus, 9% for retweets).
CREATE INDEX posts_favorites ON posts (favorite_count) WHERE favorite_count >= 10;
CREATE INDEX posts_retweets ON posts (retweet_count) WHERE retweet_count >= 10;
CREATE INDEX posts_replies ON posts (reply_count) WHERE reply_count >= 10;

-- filter:media and filter:links: only the posts that have them, in id order (one key value).
CREATE INDEX posts_media ON posts (has_media) WHERE has_media = 1;
CREATE INDEX posts_links ON posts (has_links) WHERE has_links = 1;
-- filter:quote and filter:self_threads: only those posts; the keys make each index cover its
-- condition, so listing the posts reads no posts row. The expressions must stay identical to
-- the compiler's (search/compile.ts operatorPredicate) or SQLite cannot use them.
CREATE INDEX posts_quotes ON posts ((is_quote_status = 1 OR quoted_status_id IS NOT NULL))
  WHERE is_quote_status = 1 OR quoted_status_id IS NOT NULL;
CREATE INDEX posts_self_threads ON posts (in_reply_to_user_id, user_id, in_reply_to_status_id)
  WHERE in_reply_to_status_id IS NOT NULL AND in_reply_to_user_id IS user_id;
`;
