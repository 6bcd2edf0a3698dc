// Migration 041: more indexes for the search language's drivers (src/main/engine/search/compile.ts);
// EXPLAIN QUERY PLAN tests in test/unit/search-compile.test.ts pin their use. Separate from 040
// because data dirs that already applied 040 must still get them.
export default /* sql */ `
-- conversation_id: newest first without a sort: posts_conversation has reply_depth between the
-- conversation and the id, so a reply collection would sort the whole conversation per page.
CREATE INDEX posts_conversation_id ON posts (conversation_id, id DESC);
-- since:/until: (and the _time forms) find the id range of a time window from this index.
CREATE INDEX posts_created ON posts (created_at_us);
`;
