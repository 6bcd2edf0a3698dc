import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPaths } from '../../src/main/engine/corpus/importers';
import type { Db } from '../../src/main/engine/store/db';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

// Posts whose author the source names but does not describe are kept, with an incomplete author
// (the id, and the withheld countries when the record gives them), in every importer. Modelled on
// twarc-csv's test-data/withheld.jsonl: a search page whose includes.users leaves out withheld and
// suspended accounts, whose posts carry `withheld.scope: "user"`, and whose errors name suspended
// mentions. A later full copy of the user fills the author in, whatever the retrieval times.

const INCLUDED = '1231870473488695296';
const WITHHELD = '1358082450635829249';
const SUSPENDED = '1228027987439702016';
const POST_INCLUDED = '1404396331897085955';
const POST_WITHHELD = '1404393119253250054';
const POST_SUSPENDED = '1404393588541202433';

function v2Tweet(id: string, authorId: string, text: string, createdAt: string, extra: Record<string, unknown> = {}) {
  return {
    id, author_id: authorId, text, created_at: createdAt, conversation_id: id, lang: 'en', source: 'Twitter for Android',
    public_metrics: { retweet_count: 10, reply_count: 0, like_count: 0, quote_count: 0 }, ...extra,
  };
}

const withheldNotice = {
  withheld: { copyright: false, country_codes: ['IN'], scope: 'user' },
  entities: { urls: [{ start: 82, end: 92, url: 'https://support.twitter.com/articles/20169222', expanded_url: 'https://support.twitter.com/articles/20169222', display_url: 'Learn more' }] },
};

/** The search page: one author included, one withheld and one suspended author left out of includes.users. */
const page = {
  data: [
    v2Tweet(POST_INCLUDED, INCLUDED, 'A post by an included author', '2021-06-14T11:02:00.000Z'),
    v2Tweet(POST_SUSPENDED, SUSPENDED, 'RT @someone: #EndChildLabour is a cause', '2021-06-14T11:01:38.000Z', {
      entities: { hashtags: [{ start: 14, end: 29, tag: 'EndChildLabour' }] },
    }),
    v2Tweet(POST_WITHHELD, WITHHELD, "@irshad_rathi's account has been withheld in India in response to a legal demand. Learn more.", '2021-06-14T10:59:46.000Z', withheldNotice),
  ],
  includes: {
    users: [{ id: INCLUDED, name: 'Included Author', username: 'included_a', created_at: '2020-02-24T09:16:42.000Z', public_metrics: { followers_count: 4325, following_count: 3900, tweet_count: 12, listed_count: 1 } }],
  },
  errors: [{ parameter: 'entities.mentions.username', resource_id: 'RSS4India', value: 'RSS4India', detail: 'User has been suspended: [RSS4India].', title: 'Forbidden', resource_type: 'user' }],
  meta: { result_count: 3, newest_id: POST_INCLUDED, oldest_id: POST_WITHHELD },
  __twarc: { url: 'https://api.twitter.com/2/tweets/search/recent', version: '2.0.8', retrieved_at: '2021-06-14T12:00:00+00:00' },
};

/** An earlier page (retrieved before the account was withheld) that describes the withheld author in full. */
const fullAuthorPage = {
  data: [v2Tweet('1400000000000000001', WITHHELD, 'Before it was withheld', '2021-06-01T08:00:00.000Z')],
  includes: {
    users: [{ id: WITHHELD, name: 'Now Withheld', username: 'now_withheld', description: 'An invented account.', created_at: '2021-02-07T10:00:00.000Z', verified: false, protected: false, public_metrics: { followers_count: 77, following_count: 5, tweet_count: 900, listed_count: 0 } }],
  },
  __twarc: { retrieved_at: '2021-06-02T00:00:00+00:00' },
};

const userOf = (db: Db, id: string) =>
  db.prepare('SELECT id, incomplete, screen_name, name, followers_count, created_at_us, raw_json, retrieved_at_ms FROM social_users WHERE id = ?').safeIntegers(true).get(BigInt(id)) as
    | Record<string, unknown>
    | undefined;

function writeLines(dir: string, name: string, values: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, values.map((v) => JSON.stringify(v)).join('\n') + '\n');
  return file;
}

describe('import: posts whose author is not described', () => {
  it('v2: keeps the posts of authors missing from includes.users (exit 0), marks them incomplete, keeps the withheld countries', async () => {
    const dataDir = tempDir();
    const file = writeLines(tempDir(), 'search.jsonl', [page]);
    const cli = await runCli('import', file, '--json', '--data-dir', dataDir);
    expect(cli.code, cli.out).toBe(0);
    const report = JSON.parse(cli.out) as { added: number; problemCount: number; skippedReasons: Record<string, number> };
    expect([report.added, report.problemCount, report.skippedReasons]).toEqual([3, 0, {}]);

    const { db } = testEngine({ dataDir });
    expect(db.prepare('SELECT id FROM posts ORDER BY id').safeIntegers(true).pluck().all()).toEqual(
      [POST_WITHHELD, POST_SUSPENDED, POST_INCLUDED].map(BigInt),
    );
    expect(userOf(db, INCLUDED)).toMatchObject({ incomplete: 0n, screen_name: 'included_a' });
    expect(userOf(db, WITHHELD)).toMatchObject({ incomplete: 1n, screen_name: '', name: '', followers_count: 0n, created_at_us: 0n });
    expect(JSON.parse(userOf(db, WITHHELD)!.raw_json as string)).toEqual({ withheld: { country_codes: ['IN'], scope: 'user' } });
    expect(userOf(db, SUSPENDED)).toMatchObject({ incomplete: 1n, screen_name: '', raw_json: null });
    // The post keeps its own withheld object, and its hashtags are searchable as any post's.
    expect(JSON.parse(db.prepare('SELECT raw_json FROM posts WHERE id = ?').pluck().get(BigInt(POST_WITHHELD)) as string).withheld).toEqual(withheldNotice.withheld);
    expect(db.prepare("SELECT post_id FROM post_hashtags WHERE tag = 'endchildlabour'").safeIntegers(true).pluck().all()).toEqual([BigInt(POST_SUSPENDED)]);

    const again = await importPaths(db, [file]);
    expect([again.added, again.updated, again.problemCount]).toEqual([0, 0, 0]);
  });

  it('v2: a later import of the full user fills the author in, even from an older retrieval; the placeholder never overwrites it', async () => {
    const { db } = testEngine();
    const dir = tempDir();
    await importPaths(db, [writeLines(dir, 'search.jsonl', [page])]);
    expect(userOf(db, WITHHELD)!.retrieved_at_ms).toBe(BigInt(Date.UTC(2021, 5, 14, 12)));

    const fill = await importPaths(db, [writeLines(dir, 'earlier.jsonl', [fullAuthorPage])]);
    expect(fill.added).toBe(1);
    const filled = userOf(db, WITHHELD)!;
    expect(filled).toMatchObject({ incomplete: 0n, screen_name: 'now_withheld', name: 'Now Withheld', followers_count: 77n, retrieved_at_ms: BigInt(Date.UTC(2021, 5, 2)) });
    expect(filled.created_at_us).toBe(BigInt(Date.UTC(2021, 1, 7, 10)) * 1000n);

    // The newer page again (its author still missing): the full user stays as it is.
    const again = await importPaths(db, [join(dir, 'search.jsonl')]);
    expect([again.added, again.updated]).toEqual([0, 0]);
    expect(userOf(db, WITHHELD)).toEqual(filled);
    // A timeline by screen name now finds the author's posts, the placeholder's one included.
    expect(db.prepare("SELECT count(*) FROM posts p JOIN social_users u ON u.id = p.user_id WHERE u.screen_name_lower = 'now_withheld'").pluck().get()).toBe(2);
  });

  it('v2: a post without author_id is still refused, naming why', async () => {
    const { db } = testEngine();
    const noAuthor = { ...page, data: [{ ...page.data[0], author_id: undefined }] };
    const report = await importPaths(db, [writeLines(tempDir(), 'p.jsonl', [noAuthor])]);
    expect(report.added).toBe(0);
    expect(report.problems[0]!.message).toMatch(/no author_id: whose post it is cannot be told/);
  });

  it('v1.1: a status with a trimmed user (id only) is kept with an incomplete author, filled in by a later full status', async () => {
    const { db } = testEngine();
    const dir = tempDir();
    // Numeric ids above 2^53 as v1.1 writes them (read exactly), trim_user=true, withheld for its author.
    const trimmed = join(dir, 'trimmed.jsonl');
    writeFileSync(
      trimmed,
      '{"created_at":"Thu Oct 11 09:00:00 +0000 2018","id":1050310000000000009,"id_str":"1050310000000000009","text":"trimmed author",' +
        '"user":{"id":9007199254740999,"id_str":"9007199254740999"},"withheld_scope":"user","withheld_in_countries":["DE"],"lang":"en"}\n',
    );
    utimesSync(trimmed, new Date('2018-10-12T00:00:00Z'), new Date('2018-10-12T00:00:00Z'));
    const first = await importPaths(db, [trimmed]);
    expect([first.added, first.problemCount]).toEqual([1, 0]);
    expect(db.prepare('SELECT user_id FROM posts WHERE id = 1050310000000000009').safeIntegers(true).pluck().get()).toBe(9007199254740999n);
    expect(userOf(db, '9007199254740999')).toMatchObject({ incomplete: 1n, screen_name: '' });
    expect(JSON.parse(userOf(db, '9007199254740999')!.raw_json as string)).toEqual({ withheld_in_countries: ['DE'], withheld_scope: 'user' });

    const full = join(dir, 'full.jsonl');
    writeFileSync(
      full,
      '{"created_at":"Wed Oct 10 09:00:00 +0000 2018","id":1050310000000000008,"id_str":"1050310000000000008","text":"full author",' +
        '"user":{"id":9007199254740999,"id_str":"9007199254740999","screen_name":"trim_me","name":"Trim Me","followers_count":5,"created_at":"Mon Jan 02 03:04:05 +0000 2017"},"lang":"en"}\n',
    );
    utimesSync(full, new Date('2018-10-11T00:00:00Z'), new Date('2018-10-11T00:00:00Z'));
    await importPaths(db, [full]);
    expect(userOf(db, '9007199254740999')).toMatchObject({ incomplete: 0n, screen_name: 'trim_me', name: 'Trim Me', followers_count: 5n, raw_json: null });
    expect((await importPaths(db, [trimmed])).updated).toBe(0);
    expect(userOf(db, '9007199254740999')).toMatchObject({ incomplete: 0n, screen_name: 'trim_me' });
  });

  it('service JSON: a Tweet whose user has only an id, and article details without a user, are kept', async () => {
    const { db } = testEngine();
    const tweet = {
      tweet_created_at: '2026-01-02T03:04:05.000006Z', id_str: '1897000000000000901', text: null, full_text: 'author known by id only',
      user: { id_str: '777' }, lang: 'en',
    };
    const details = {
      tweet_created_at: '2026-01-02T04:00:00.000000+00:00', id_str: '1897000000000000902', text: null, full_text: 'an article',
      created_at: '2026-01-02T04:00:00+00:00', user_id: 778, user_screen_name: 'art_author', lang: 'en',
      article: { id_str: '1897000000000000999', title: 'A title', published_at: '2026-01-02T04:00:00+00:00' },
    };
    const report = await importPaths(db, [writeLines(tempDir(), 'service.jsonl', [tweet, details])]);
    expect([report.added, report.problemCount]).toEqual([2, 0]);
    expect(userOf(db, '777')).toMatchObject({ incomplete: 1n, screen_name: '' });
    expect(userOf(db, '778')).toMatchObject({ incomplete: 1n });
    expect(db.prepare('SELECT user_id FROM posts WHERE id = 1897000000000000902').pluck().get()).toBe(778);
  });

  it('X archive: an account.js without a username still imports the posts, the owner incomplete', async () => {
    const { db } = testEngine();
    const root = tempDir();
    mkdirSync(join(root, 'data'));
    writeFileSync(join(root, 'data', 'account.js'), 'window.YTD.account.part0 = [{"account":{"accountId":"9007199254740997","accountDisplayName":"Nameless Owner"}}]');
    writeFileSync(
      join(root, 'data', 'tweets.js'),
      'window.YTD.tweets.part0 = [{"tweet":{"id_str":"1700000000000000001","created_at":"Sat Sep 09 10:11:12 +0000 2023","full_text":"hello","entities":{},"favorite_count":"1","retweet_count":"0"}}]',
    );
    const report = await importPaths(db, [root]);
    expect([report.added, report.problemCount]).toEqual([1, 0]);
    expect(userOf(db, '9007199254740997')).toMatchObject({ incomplete: 1n, screen_name: '', name: 'Nameless Owner' });
  });
});
