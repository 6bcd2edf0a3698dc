import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_WITH_PROBLEMS } from '../../src/main/cli/import';
import { MAX_NESTING_DEPTH } from '../../src/main/engine/corpus/importers/nesting';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

// Issue 13: a file of 100,000 nested arrays ended `skein import` with "Maximum call stack size
// exceeded" (exit 1) and the files after it were never read. It must be refused with its name and
// the reason, and the import must go on.

const DEPTH = 100_000;
const deepArrays = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const deepObjects = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
const tweetText = readFileSync(join(__dirname, '..', 'fixtures', 'corpus', 'tweet-detail.json'), 'utf8').trim();
/** The fixture Tweet (a service Tweet, the smallest valid record) with another id, ids exact. */
const tweet = (id: string) => tweetText.replace(/1897000000000000123/g, id);

interface Report {
  files: { file: string; format: string; records: number }[];
  added: number;
  problems: { file: string; line: number; message: string }[];
  problemCount: number;
}

async function importCli(dataDir: string, ...files: string[]) {
  const cli = await runCli('import', ...files, '--json', '--data-dir', dataDir);
  return { code: cli.code, report: JSON.parse(cli.out) as Report, err: cli.err };
}

const postIds = (dataDir: string) =>
  testEngine({ dataDir }).db.prepare('SELECT id FROM posts ORDER BY id').safeIntegers(true).pluck().all() as bigint[];

describe('import: values nested too deeply', () => {
  it('refuses a JSON file of 100,000 nested arrays by name and imports the file after it', async () => {
    const dir = tempDir();
    const dataDir = tempDir();
    const deep = join(dir, 'a-deep.json');
    const good = join(dir, 'b-good.json');
    writeFileSync(deep, deepArrays);
    writeFileSync(good, `[\n${tweet('1897000000000000201')},\n${tweet('1897000000000000202')}\n]\n`);

    const { code, report } = await importCli(dataDir, deep, good);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.problems).toEqual([{ file: deep, line: 1, message: expect.stringContaining(`nested deeper than ${MAX_NESTING_DEPTH} levels`) }]);
    expect(report.added).toBe(2);
    expect(report.files.find((f) => f.file === good)).toMatchObject({ records: 2 });
    expect(postIds(dataDir)).toEqual([1897000000000000201n, 1897000000000000202n]);
  });

  it('JSON Lines: a deep line is refused with its line, the good lines around it and the next file import', async () => {
    const dir = tempDir();
    const dataDir = tempDir();
    const lines = join(dir, 'a-mixed.jsonl');
    const next = join(dir, 'b-next.jsonl');
    // Brackets inside a string are not nesting: 6,000 of them (and an escaped quote) in a post's text.
    const bracketText = tweet('1897000000000000303').replace('"full_text":"Replying', `"full_text":"${'[{'.repeat(3000)} \\" [[ Replying`);
    writeFileSync(lines, [tweet('1897000000000000301'), deepArrays, tweet('1897000000000000302'), deepObjects, bracketText].join('\n') + '\n');
    writeFileSync(next, tweet('1897000000000000401') + '\n');

    const { code, report } = await importCli(dataDir, lines, next);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.problems.map((p) => [p.file, p.line])).toEqual([
      [lines, 2],
      [lines, 4],
    ]);
    for (const p of report.problems) expect(p.message).toMatch(/nested deeper than 1000 levels/);
    expect(postIds(dataDir)).toEqual([1897000000000000301n, 1897000000000000302n, 1897000000000000303n, 1897000000000000401n]);

    // The summary a person reads names the file, the line and the reason.
    const printed = await runCli('import', lines, '--data-dir', dataDir);
    expect(printed.code).toBe(EXIT_WITH_PROBLEMS);
    expect(printed.out).toContain(`${lines}:2: nested deeper than 1000 levels`);
  });

  it('a record exactly at the limit imports, one level more is refused', async () => {
    const dir = tempDir();
    const dataDir = tempDir();
    const file = join(dir, 'at-limit.jsonl');
    // The post's user object holds an extra field nested so that the whole record is exactly
    // MAX_NESTING_DEPTH levels deep (the record itself is level 1, its field value level 2).
    const extra = '['.repeat(MAX_NESTING_DEPTH - 1) + ']'.repeat(MAX_NESTING_DEPTH - 1);
    const over = `[${extra}]`;
    writeFileSync(file, `${tweet('1897000000000000501').replace(/^\{/, `{"deep_extra":${extra},`)}\n${tweet('1897000000000000502').replace(/^\{/, `{"deep_extra":${over},`)}\n`);
    const { code, report } = await importCli(dataDir, file);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.problems.map((p) => [p.line, p.message.slice(0, 32)])).toEqual([[2, 'nested deeper than 1000 levels (']]);
    expect(postIds(dataDir)).toEqual([1897000000000000501n]);
  });
});
