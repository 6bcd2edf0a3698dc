import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPaths } from '../../src/main/engine/corpus/importers';
import { tempDir } from '../helpers/temp';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';

// The service's own JSON in every container the issue lists: a job's JSON output (an array, one
// Tweet per line), a timeline page, article and space details, JSON Lines, a pretty-printed Tweet.
const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'corpus', name), 'utf8').trim();
const tweetText = fixture('tweet-detail.json');
/** The fixture Tweet with another id (and its id_str), as raw JSON text: numeric ids stay exact. */
const withId = (id: string, extra = '') => tweetText.replace(/1897000000000000123/g, id).replace(/^\{/, `{${extra}`);

describe('import: the service JSON', () => {
  it('reads a job output array, a timeline page, article and space details and a pretty-printed Tweet', async () => {
    const { db } = testEngine();
    const dir = tempDir();
    writeFileSync(join(dir, 'replies-job7.json'), `[\n${withId('1897000000000000201', '"wallet_address":"0xabc",')},\n${withId('1897000000000000202')}\n]\n`);
    writeFileSync(join(dir, 'page.json'), `{"next_cursor":"abc","tweets":[${withId('1897000000000000301')},${withId('1897000000000000302')}]}`);
    writeFileSync(join(dir, 'details.jsonl'), `${fixture('article-detail.json')}\n${fixture('space.json')}\n`);
    writeFileSync(join(dir, 'one-tweet.json'), JSON.stringify(JSON.parse(withId('1897000000000000401').replace(/:(\d{16,})/g, ':"$1"')), null, 2));
    const report = await importPaths(db, [dir]);
    expect(report.problems).toEqual([]);
    expect(report.added).toBe(7);
    expect(report.files.map((f) => [f.file.slice(dir.length + 1), f.format, f.records])).toEqual([
      ['details.jsonl', 'service article details (JSON Lines)', 2],
      ['one-tweet.json', 'service tweet (JSON)', 1],
      ['page.json', 'service timeline page (JSON Lines)', 2],
      ['replies-job7.json', 'service tweet (JSON)', 2],
    ]);
    const ids = db.prepare('SELECT id FROM posts ORDER BY id').safeIntegers(true).pluck().all();
    expect(ids).toEqual([1885000000000000777n, 1897000000000000201n, 1897000000000000202n, 1897000000000000301n, 1897000000000000302n, 1897000000000000401n]);
    expect(JSON.parse(db.prepare('SELECT raw_json FROM posts WHERE id = 1897000000000000201').pluck().get() as string)).toEqual({ wallet_address: '0xabc' });
    expect(db.prepare('SELECT count(*) FROM spaces').pluck().get()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM articles').pluck().get()).toBe(1);

    const again = await importPaths(db, [dir]);
    expect([again.added, again.updated, again.skipped]).toEqual([0, 0, 7]);
  });

  it('latest retrieval wins: a newer file updates counters, an older one changes nothing', async () => {
    const { db } = testEngine();
    const dir = tempDir();
    const older = join(dir, 'older.jsonl');
    const newer = join(dir, 'newer.jsonl');
    writeFileSync(older, withId('1897000000000000501').replace('"favorite_count":4', '"favorite_count":1') + '\n');
    writeFileSync(newer, withId('1897000000000000501').replace('"favorite_count":4', '"favorite_count":9') + '\n');
    utimesSync(older, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    utimesSync(newer, new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'));
    const favorites = () => db.prepare('SELECT favorite_count FROM posts WHERE id = 1897000000000000501').pluck().get();

    expect((await importPaths(db, [newer])).added).toBe(1);
    const r = await importPaths(db, [older]);
    expect([r.added, r.updated, r.skipped]).toEqual([0, 0, 1]);
    expect(favorites()).toBe(9);

    writeFileSync(older, withId('1897000000000000501').replace('"favorite_count":4', '"favorite_count":20') + '\n');
    utimesSync(older, new Date('2026-03-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z'));
    expect((await importPaths(db, [older])).updated).toBe(1);
    expect(favorites()).toBe(20);
    expect(db.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(1);
  });

  it('never leaves a transaction open while reading, so it can share the API\'s connection', async () => {
    const { db } = testEngine();
    const file = join(tempDir(), 'many.jsonl');
    // ~3 MB: several read chunks, so the event loop runs other work between batches.
    const lines: string[] = [];
    for (let i = 0; i < 1500; i++) lines.push(withId(String(1897000000000010000n + BigInt(i))));
    writeFileSync(file, lines.join('\n') + '\n');
    let ticks = 0;
    let sawOpen = false;
    const timer = setInterval(() => {
      ticks++;
      if (db.inTransaction) sawOpen = true;
      // Another writer on the same connection between batches: its own transaction, committed.
      db.prepare("INSERT INTO corpus_meta (key, value) VALUES ('probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(String(ticks));
    }, 0);
    const report = await importPaths(db, [file], { batchSize: 50 });
    clearInterval(timer);
    expect(report.added).toBe(1500);
    expect(ticks).toBeGreaterThan(0);
    expect(sawOpen).toBe(false);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'posts_fts_insert'").pluck().get()).toBe(1);
    expect(db.prepare("SELECT count(*) FROM posts_fts WHERE posts_fts MATCH 'replying'").pluck().get()).toBe(1500);
  });

  it('refuses files it cannot read as data, with the reason, and imports the rest', async () => {
    const { db } = testEngine();
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'just some notes\n');
    writeFileSync(join(dir, 'empty.json'), '');
    writeFileSync(join(dir, 'ok.jsonl'), withId('1897000000000000601') + '\n');
    const report = await importPaths(db, [dir, join(dir, 'missing.json')]);
    expect(report.added).toBe(1);
    expect(report.files.map((f) => f.format)).toEqual([
      'not imported: the file is empty',
      "not imported: it starts with 'just some notes ', not JSON, JSON Lines, an X archive part or a zip",
      'service tweet (JSON Lines)',
      'not imported: no such file or folder',
    ]);
  });

  it("shows a refused file's first bytes escaped, so terminal control sequences in it never run", async () => {
    const dir = tempDir();
    const file = join(dir, 'evil.txt');
    writeFileSync(file, '\u009b\u001b]0;PWNED\u0007\u001b[2J\u202ehidden');
    const { db } = testEngine();
    const report = await importPaths(db, [file]);
    expect(report.files[0]!.format).toBe(
      "not imported: it starts with '\\x9b\\x1b]0;PWNED\\x07\\x1b[2J\\u202ehidd', not JSON, JSON Lines, an X archive part or a zip",
    );
    const printed = await runCli('import', file, '--data-dir', tempDir());
    expect(printed.out + printed.err).toContain('\\x1b]0;PWNED');
    // eslint-disable-next-line no-control-regex -- looking for the raw control characters themselves
    expect(printed.out + printed.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });
});
