import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_WITH_PROBLEMS } from '../../src/main/cli/import';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

// Issue 13, item 11: an X archive's data/tweets.js starts `window.YTD.tweets.part0 = [`. The
// importer skipped whatever came before the first bracket, so a tweets.js with no prefix or with
// another one (the likes file, `window.YTD.like.part0 = [`) was read without a word. Now the file
// is refused naming what was expected and what was found, and nothing is imported from it.

const ACCOUNT = `window.YTD.account.part0 = [ { "account" : { "username" : "kestra_h", "accountId" : "9007199254740997", "createdAt" : "2013-04-05T06:07:08.000Z", "accountDisplayName" : "Kestra Harrowgate" } } ]`;
const POSTS = `[
  { "tweet" : { "id_str" : "1700000000000000001", "id" : "1700000000000000001", "created_at" : "Sat Sep 09 10:11:12 +0000 2023", "full_text" : "New layer #maps", "entities" : { "hashtags" : [ { "text" : "maps", "indices" : [ "10", "15" ] } ] }, "favorite_count" : "12", "retweet_count" : "3", "lang" : "en" } },
  { "tweet" : { "id_str" : "1700000000000000002", "id" : "1700000000000000002", "created_at" : "Sat Sep 09 10:20:00 +0000 2023", "full_text" : "and a follow-up", "entities" : { }, "lang" : "en" } }
]`;
const LIKES = `[
  { "like" : { "tweetId" : "1600000000000000001", "fullText" : "someone else's post", "expandedUrl" : "https://twitter.com/i/web/status/1600000000000000001" } }
]`;

/** An unpacked archive folder whose data/tweets.js holds `tweetsJs`. */
function archive(tweetsJs: string): { root: string; tweets: string } {
  const root = tempDir();
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'account.js'), ACCOUNT);
  writeFileSync(join(root, 'data', 'tweets.js'), tweetsJs);
  return { root, tweets: join(root, 'data', 'tweets.js') };
}

async function importCli(dataDir: string, ...paths: string[]) {
  const cli = await runCli('import', ...paths, '--json', '--data-dir', dataDir);
  return { code: cli.code, report: JSON.parse(cli.out) as { files: { file: string; format: string; records: number }[]; added: number; problems: { message: string }[] } };
}

const postCount = (dataDir: string) => testEngine({ dataDir }).db.prepare('SELECT count(*) FROM posts').pluck().get();

describe('import: the X archive tweets.js prefix', () => {
  it('the right prefix imports the posts (folder and the file on its own)', async () => {
    const { root, tweets } = archive(`window.YTD.tweets.part0 = ${POSTS}`);
    const dataDir = tempDir();
    const { code, report } = await importCli(dataDir, root);
    expect(code).toBe(0);
    expect(report.files).toEqual([{ file: tweets, format: 'X archive tweets', records: 2 }]);
    expect(postCount(dataDir)).toBe(2);
    const alone = tempDir();
    expect((await importCli(alone, tweets)).report.added).toBe(2);
    expect(postCount(alone)).toBe(2);
  });

  it('no prefix: refused naming the expected prefix and what was found, nothing imported', async () => {
    const { root, tweets } = archive(POSTS);
    for (const path of [root, tweets]) {
      const dataDir = tempDir();
      const { code, report } = await importCli(dataDir, path);
      expect(code).toBe(EXIT_WITH_PROBLEMS);
      expect(report.files).toEqual([{
        file: tweets,
        format: `not imported: an X archive tweets file starts with 'window.YTD.tweets.part0 = [', this one starts with '[ { "tweet" : { "id_str" : "17' (no prefix)`,
        records: 0,
      }]);
      expect(postCount(dataDir)).toBe(0);
    }
  });

  it("another prefix (the archive's likes saved as tweets.js): refused naming both, nothing imported", async () => {
    const { root, tweets } = archive(`window.YTD.like.part0 = ${LIKES}`);
    const dataDir = tempDir();
    const { code, report } = await importCli(dataDir, root);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.files).toEqual([{
      file: tweets,
      format: `not imported: an X archive tweets file starts with 'window.YTD.tweets.part0 = [', this one starts with 'window.YTD.like.part0 = [' (the archive's 'like' data, not its posts)`,
      records: 0,
    }]);
    expect(postCount(dataDir)).toBe(0);
  });

  it('the right prefix over elements that are not posts: each refused as such, nothing imported', async () => {
    const { root, tweets } = archive(`window.YTD.tweets.part0 = ${LIKES}`);
    const dataDir = tempDir();
    const { code, report } = await importCli(dataDir, root);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.files).toEqual([{ file: tweets, format: 'X archive tweets', records: 1 }]);
    expect(report.problems.map((p) => p.message)).toEqual(['not an X archive post: expected {"tweet": {...}}, found an object with keys: like']);
    expect(postCount(dataDir)).toBe(0);
  });
});
