// Migration 040: indexes for the search language (src/main/engine/search).
export default /* sql */ `
-- Top search orders by an engagement score (docs/search-language.md); with this index a broad
-- Top query walks matches best-first and stops after a page instead of sorting every post.
-- The expression must stay identical to TOP_SCORE_SQL in search/page.ts or SQLite ignores it.
CREATE INDEX posts_top_score ON posts ((favorite_count + 2 * retweet_count + 3 * quote_count + reply_count) DESC, id DESC);
`;
