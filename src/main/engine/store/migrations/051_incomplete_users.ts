// Migration 051. Applied once, in its own transaction, by store/migrate.ts.
export default /* sql */ `
-- A user the source named but did not describe: the author of a post whose user object is missing
-- from the page (twarc2's includes.users lacks withheld and suspended accounts) or carries no
-- screen_name (v1.1 trim_user). Such a row holds the id (and whatever else was given, e.g. the
-- withheld countries in raw_json) and defaults elsewhere, so every read can serve the post. A full
-- copy of the user replaces it whatever the retrieval times; it never overwrites a full one.
ALTER TABLE social_users ADD COLUMN incomplete INTEGER NOT NULL DEFAULT 0;
`;
