import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { importPaths } from '../../src/main/engine/corpus/importers';
import { tempDir } from '../helpers/temp';
import { testEngine } from '../helpers/engine';

// An X account archive as the platform packs it (invented owner): counters and entity indices
// are strings, posts carry no user, the owner is in account.js and profile.js.
const ACCOUNT = `window.YTD.account.part0 = [
  {
    "account" : {
      "email" : "owner@example.com",
      "createdVia" : "web",
      "username" : "kestra_h",
      "accountId" : "9007199254740997",
      "createdAt" : "2013-04-05T06:07:08.000Z",
      "accountDisplayName" : "Kestra Harrowgate"
    }
  }
]`;
const PROFILE = `window.YTD.profile.part0 = [
  {
    "profile" : {
      "description" : { "bio" : "Invented archive owner.", "website" : "https://example.org/kestra", "location" : "North Brack" },
      "avatarMediaUrl" : "https://images.example.com/k.jpg",
      "headerMediaUrl" : "https://images.example.com/k-header.jpg"
    }
  }
]`;
const TWEETS = `window.YTD.tweets.part0 = [
  {
    "tweet" : {
      "retweeted" : false,
      "source" : "<a href=\\"https://mobile.twitter.com\\" rel=\\"nofollow\\">Twitter Web App</a>",
      "entities" : { "hashtags" : [ { "text" : "maps", "indices" : [ "10", "15" ] } ], "symbols" : [ ], "user_mentions" : [ ], "urls" : [ ] },
      "display_text_range" : [ "0", "15" ],
      "favorite_count" : "12",
      "id_str" : "1700000000000000001",
      "truncated" : false,
      "retweet_count" : "3",
      "id" : "1700000000000000001",
      "created_at" : "Sat Sep 09 10:11:12 +0000 2023",
      "favorited" : false,
      "full_text" : "New layer #maps",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "id_str" : "1700000000000000002",
      "in_reply_to_status_id_str" : "1700000000000000001",
      "in_reply_to_user_id_str" : "9007199254740997",
      "in_reply_to_screen_name" : "kestra_h",
      "favorite_count" : "1",
      "retweet_count" : "0",
      "created_at" : "Sat Sep 09 10:20:00 +0000 2023",
      "full_text" : "@kestra_h and a follow-up",
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "user_mentions" : [ { "name" : "Kestra Harrowgate", "screen_name" : "kestra_h", "indices" : [ "0", "9" ], "id_str" : "9007199254740997", "id" : "9007199254740997" } ], "urls" : [ ] },
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "id_str" : "1700000000000000003",
      "created_at" : "not a date",
      "full_text" : "broken",
      "entities" : { }
    }
  }
]`;

function writeArchive(root: string): void {
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'data', 'account.js'), ACCOUNT);
  writeFileSync(join(root, 'data', 'profile.js'), PROFILE);
  writeFileSync(join(root, 'data', 'tweets.js'), TWEETS);
  writeFileSync(join(root, 'Your archive.html'), '<html></html>');
}

async function zipArchive(file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(ACCOUNT), 'data/account.js');
  zip.addBuffer(Buffer.from(PROFILE), 'data/profile.js');
  zip.addBuffer(Buffer.from(TWEETS), 'data/tweets.js');
  zip.addBuffer(Buffer.from('<html></html>'), 'Your archive.html');
  zip.end();
  await new Promise<void>((done, fail) => zip.outputStream.pipe(createWriteStream(file)).on('close', done).on('error', fail));
}

describe('import: the X account archive', () => {
  it('imports the unpacked folder with the owner as the author, and refuses the broken post by line', async () => {
    const { db } = testEngine();
    const root = tempDir();
    writeArchive(root);
    const report = await importPaths(db, [root]);
    expect(report.added).toBe(2);
    expect(report.problems).toEqual([{ file: join(root, 'data', 'tweets.js'), line: 33, message: "tweet_created_at: unreadable timestamp 'not a date'" }]);

    const user = db.prepare('SELECT * FROM social_users').safeIntegers(true).get() as Record<string, unknown>;
    expect(user).toMatchObject({
      id: 9007199254740997n, screen_name: 'kestra_h', name: 'Kestra Harrowgate', description: 'Invented archive owner.',
      location: 'North Brack', url: 'https://example.org/kestra', profile_image_url_https: 'https://images.example.com/k.jpg',
      created_at_us: BigInt(Date.UTC(2013, 3, 5, 6, 7, 8)) * 1000n,
    });
    // The owner's email (account.js) is never stored.
    expect(db.prepare("SELECT count(*) FROM social_users WHERE coalesce(raw_json, '') LIKE '%@example.com%'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM posts WHERE coalesce(raw_json, '') LIKE '%owner@%'").pluck().get()).toBe(0);
    const post = db.prepare('SELECT favorite_count, retweet_count, entities_json FROM posts WHERE id = 1700000000000000001').get() as Record<string, unknown>;
    expect(post.favorite_count).toBe(12);
    expect(post.retweet_count).toBe(3);
    expect(JSON.parse(post.entities_json as string).hashtags).toEqual([{ text: 'maps', indices: [10, 15] }]);
    expect(db.prepare('SELECT reply_depth FROM posts WHERE id = 1700000000000000002').pluck().get()).toBe(1);
  });

  it('imports the zip as downloaded, and a second import adds nothing', async () => {
    const { db } = testEngine();
    const file = join(tempDir(), 'twitter-2026-archive.zip');
    await zipArchive(file);
    const first = await importPaths(db, [file]);
    expect([first.added, first.problemCount]).toEqual([2, 1]);
    expect(first.files[0]!.file).toBe(`${file}!data/tweets.js`);
    const again = await importPaths(db, [file]);
    expect([again.added, again.updated]).toEqual([0, 0]);
    expect(db.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(2);
  });

  it('refuses a tweets.js without account.js, saying why', async () => {
    const { db } = testEngine();
    const root = tempDir();
    mkdirSync(join(root, 'data'));
    const file = join(root, 'data', 'tweets.js');
    writeFileSync(file, TWEETS);
    const report = await importPaths(db, [file]);
    expect(report.files[0]!.format).toMatch(/^not imported: an X archive part without a readable data\/account\.js/);
    expect(db.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(0);
  });
});
