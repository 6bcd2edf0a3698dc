// Migration 052: protected accounts' posts are not public (docs/decisions.md "Search: protected accounts"),
// so every search, search job and reply job leaves them out with
// `p.user_id NOT IN (SELECT id FROM social_users WHERE protected = 1)` (search/protected.ts).
export default /* sql */ `
-- The protected accounts alone: the subquery above and the "is any account protected?" check
-- read a few entries instead of scanning every user (an imported corpus holds millions: every
-- reply's author is one). Partial, so it costs nothing for the public accounts.
CREATE INDEX social_users_protected ON social_users (id) WHERE protected = 1;
`;
