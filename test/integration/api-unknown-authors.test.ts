import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPaths } from '../../src/main/engine/corpus/importers';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { COLUMNS } from '../../src/main/engine/jobs/writers/columns';
import { apiKey } from '../fixtures/api-corpus';
import { parseCsv, readXlsx } from '../fixtures/data-files';
import { testRunner } from '../fixtures/job-runner';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { tempDir } from '../helpers/temp';

// A post whose author is only known by id (twarc2 leaves withheld and suspended accounts out of
// includes.users) is served by every read: details (SQLite's JSON writer), timelines by the
// author's id, search, the jobs' JSON, CSV and XLSX files, and the app's handlers. The author is
// the spec's User (2.2) with id and id_str set, strings empty, counters 0, flags false, url null
// and created_at 1970-01-01, as for any user whose creation time no source gave. Never a 500.

const AUTHOR = '1358082450635829249';
const POST = '1404393119253250054';

const page = {
  data: [{
    id: POST, author_id: AUTHOR, conversation_id: POST, created_at: '2021-06-14T10:59:46.000Z', lang: 'en', source: 'Twitter for Android',
    text: "@irshad_rathi's account has been withheld in India in response to a legal demand. Learn more.",
    withheld: { copyright: false, country_codes: ['IN'], scope: 'user' },
    public_metrics: { retweet_count: 10, reply_count: 0, like_count: 0, quote_count: 0 },
  }],
  includes: { users: [] },
  __twarc: { retrieved_at: '2021-06-14T12:00:00+00:00' },
};

const UNKNOWN_USER_TEXT =
  `{"id":${AUTHOR},"id_str":"${AUTHOR}","name":"","screen_name":"","location":"","url":null,"description":"","protected":false,"verified":false,` +
  '"followers_count":0,"friends_count":0,"listed_count":0,"favourites_count":0,"statuses_count":0,"created_at":"1970-01-01T00:00:00.000000Z",' +
  '"profile_banner_url":"","profile_image_url_https":"","can_dm":false}';
/** The same User in the timeline shape: no numeric id. */
const TIMELINE_USER = JSON.parse(UNKNOWN_USER_TEXT.replace(`"id":${AUTHOR},`, '')) as Record<string, unknown>;

async function setup() {
  const engine = testEngine();
  const file = join(tempDir(), 'withheld.jsonl');
  writeFileSync(file, JSON.stringify(page) + '\n');
  const report = await importPaths(engine.db, [file]);
  expect([report.added, report.problemCount]).toEqual([1, 0]);
  const server = await startServer(engine);
  const key = apiKey(engine);
  return { engine, server, key, get: (path: string) => server.request(path, { key }) };
}

describe('reads of a post whose author is unknown', () => {
  it('details, timelines by id and search answer 200 with the author id and empty fields', async () => {
    const { get } = await setup();
    for (const path of [`/social/tweets/${POST}`, `/social/statuses/show?id=${POST}`]) {
      const res = await get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.text).toContain(`"user":${UNKNOWN_USER_TEXT}`);
    }
    for (const path of [`/social/user/${AUTHOR}/tweets`, `/social/user/${AUTHOR}/tweets-and-replies`, '/social/search?query=withheld']) {
      const res = await get(path);
      expect(res.status, `${path} ${res.text}`).toBe(200);
      const body = res.json() as { tweets: { id_str: string; user: Record<string, unknown> }[] };
      expect(body.tweets.map((t) => t.id_str)).toEqual([POST]);
      expect(body.tweets[0]!.user).toEqual(TIMELINE_USER);
    }
  });

  it('the jobs write the post in JSON, CSV and XLSX with the author id', { timeout: 60_000 }, async () => {
    const { engine, server, key } = await setup();
    const runner = testRunner(engine, { batchRows: 5 });
    const jobs: Record<string, number> = {};
    for (const format of ['json', 'csv', 'xlsx'] as const) {
      const res = await server.request('/social/search/asyncJob', {
        method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'withheld', output_format: format }),
      });
      expect(res.status, res.text).toBe(200);
      jobs[format] = (res.json() as { job_id: number }).job_id;
    }
    await runner.idle();
    const file = async (format: string) => {
      const status = (await server.request(`/jobs/${jobs[format]}`, { key })).json() as { status: string; result: { datafile_url: string } };
      expect(status.status, JSON.stringify(status)).toBe('success');
      return Buffer.from(await (await fetch(status.result.datafile_url)).arrayBuffer());
    };
    expect((await file('json')).toString('utf8')).toContain(`"user":${UNKNOWN_USER_TEXT}`);

    const col = (name: string) => COLUMNS.findIndex((c) => c.name === name);
    const [, csvRow] = parseCsv((await file('csv')).toString('utf8').slice(1));
    expect([csvRow![col('id_str')], csvRow![col('user_id_str')], csvRow![col('user_screen_name')], csvRow![col('user_followers_count')]]).toEqual([POST, AUTHOR, '', '0']);
    const book = await readXlsx(await file('xlsx'));
    const xlsxRow = book.rows[1]!;
    expect([String(xlsxRow[col('id_str')]), String(xlsxRow[col('user_id_str')])]).toEqual([POST, AUTHOR]);
    await runner.stop();
  });

  it("the app's handlers look the author up by id and show the post", async () => {
    const { engine } = await setup();
    const { handlers: h } = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
    const user = await h['users.lookup']({ user: AUTHOR });
    expect(user).toMatchObject({ id_str: AUTHOR, screen_name: '', name: '' });
    const post = await h['post.get']({ id: POST });
    expect(post.tweet.user.id_str).toBe(AUTHOR);
    const timeline = await h['timeline.page']({ user_id: AUTHOR, kind: 'tweets' });
    expect(timeline.tweets.map((t) => t.id_str)).toEqual([POST]);
  });
});
