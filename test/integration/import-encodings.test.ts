import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { EXIT_WITH_PROBLEMS } from '../../src/main/cli/import';
import { READ_CHUNK_BYTES } from '../../src/main/engine/corpus/importers/text-source';
import { runCli } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

// Issue 13, item 9: a JSONL file starting with a UTF-8 BOM lost its first record (malformed
// JSON); a UTF-16 file was "a binary file"; a Latin-1 file was stored with U+FFFD and reported
// clean. Real files in a temp dir, the real `skein import`, the corpus checked afterwards.

const tweetText = readFileSync(join(__dirname, '..', 'fixtures', 'corpus', 'tweet-detail.json'), 'utf8').trim();
/** The fixture service Tweet with another id and text (its entities are not checked against the text). */
const tweet = (id: string, text: string) =>
  tweetText.replace(/1897000000000000123/g, id).replace(/"full_text":"[^"]*"/, `"full_text":${JSON.stringify(text)}`);

const TEXTS = ['Café déjà vu, naïve façade 😀', 'Zoë’s “quotes” — €5 🚀🏳️‍🌈', 'plain ASCII'];
/** Ids above 2^53, as real ones are: bigint arithmetic. */
const id = (base: bigint, i: number) => String(base + BigInt(i));
const jsonl = (base: bigint, texts = TEXTS) => texts.map((t, i) => tweet(id(base, i), t)).join('\n') + '\n';

interface Report {
  files: { file: string; format: string; records: number }[];
  added: number;
  problems: { file: string; line: number; message: string }[];
  problemCount: number;
}

async function importCli(dataDir: string, ...args: string[]) {
  const cli = await runCli('import', ...args, '--json', '--data-dir', dataDir);
  return { code: cli.code, report: JSON.parse(cli.out) as Report, err: cli.err };
}

const stored = (dataDir: string) =>
  testEngine({ dataDir }).db.prepare('SELECT CAST(id AS TEXT) AS id_str, full_text FROM posts ORDER BY id').all() as { id_str: string; full_text: string }[];

/** UTF-16 with its BOM: Node writes LE; BE is LE with each pair of bytes swapped. */
function utf16(text: string, bigEndian: boolean): Buffer {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return bigEndian ? le.swap16() : le;
}

describe('import: text encodings', () => {
  it('a JSON Lines file starting with a UTF-8 BOM imports every record, the first included', async () => {
    const dir = tempDir();
    const dataDir = tempDir();
    const file = join(dir, 'bom.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(jsonl(1897000000000000601n))]));
    const { code, report } = await importCli(dataDir, file);
    expect(report.problems).toEqual([]);
    expect(code).toBe(0);
    expect(report.files).toEqual([{ file, format: 'service tweet (JSON Lines)', records: 3 }]);
    expect(stored(dataDir)).toEqual(TEXTS.map((t, i) => ({ id_str: id(1897000000000000601n, i), full_text: t })));
  });

  it('UTF-16 LE and BE files with their BOM are transcoded: text equal to the UTF-8 original', async () => {
    const dir = tempDir();
    const dataDir = tempDir();
    // 1,200 records (~4 MB in UTF-16): several 1 MiB reads, so characters and surrogate pairs
    // are split between reads somewhere.
    const many = Array.from({ length: 400 }, () => TEXTS).flat();
    const le = join(dir, 'le.jsonl');
    const be = join(dir, 'be.json');
    writeFileSync(le, utf16(jsonl(1897000000000010000n, many), false));
    writeFileSync(be, utf16(`[\n${TEXTS.map((t, i) => tweet(id(1897000000000020000n, i), t)).join(',\n')}\n]\n`, true));
    expect(readFileSync(le).length).toBeGreaterThan(3 * READ_CHUNK_BYTES);

    const { code, report } = await importCli(dataDir, le, be);
    expect(report.problems).toEqual([]);
    expect(code).toBe(0);
    expect(report.files).toEqual([
      { file: le, format: 'service tweet (JSON Lines, read as UTF-16 LE)', records: 1200 },
      { file: be, format: 'service tweet (JSON, read as UTF-16 BE)', records: 3 },
    ]);
    const rows = stored(dataDir);
    expect(rows).toHaveLength(1203);
    expect(rows.slice(0, 1200).map((r) => r.full_text)).toEqual(many);
    expect(rows.slice(1200)).toEqual(TEXTS.map((t, i) => ({ id_str: id(1897000000000020000n, i), full_text: t })));
  });

  it('refuses a Latin-1 file naming it and its first bad byte, goes on with the next file, and imports it converted with --encoding latin1', async () => {
    const dir = tempDir();
    const latin = join(dir, 'a-latin1.jsonl');
    const utf8 = join(dir, 'b-utf8.jsonl');
    // "café" and Windows-1252 curly quotes (0x93, 0x94) as a Windows tool writes them.
    const latinText = jsonl(1897000000000000701n, ['café au lait', '“quoted” for €5']);
    const bytes = Buffer.from(latinText.replace('“', '\x93').replace('”', '\x94').replace('€', '\x80'), 'latin1');
    writeFileSync(latin, bytes);
    writeFileSync(utf8, jsonl(1897000000000000801n));
    const offset = bytes.indexOf(0xe9);
    expect(offset).toBeGreaterThan(100); // the fixture's first fields come before the text

    const dataDir = tempDir();
    const refused = await importCli(dataDir, latin, utf8);
    expect(refused.code).toBe(EXIT_WITH_PROBLEMS);
    const message = `not valid UTF-8 at byte ${offset.toLocaleString('en-US')} (0xE9); if the file is Latin-1, import it with --encoding latin1`;
    expect(refused.report.files).toEqual([
      { file: latin, format: `not imported: ${message}`, records: 0 },
      { file: utf8, format: 'service tweet (JSON Lines)', records: 3 },
    ]);
    expect(stored(dataDir).map((r) => r.id_str)).toEqual(['1897000000000000801', '1897000000000000802', '1897000000000000803']);
    // The printed report names the file with the reason.
    const printed = await runCli('import', latin, '--data-dir', tempDir());
    expect(printed.code).toBe(EXIT_WITH_PROBLEMS);
    expect(printed.out).toContain(`${latin}: not imported: ${message}`);

    // --encoding latin1 for the whole run: the Latin-1 file converted, the UTF-8 one still UTF-8.
    const converted = tempDir();
    const ok = await importCli(converted, '--encoding', 'latin1', latin, utf8);
    expect(ok.report.problems).toEqual([]);
    expect(ok.code).toBe(0);
    expect(ok.report.files).toEqual([
      { file: latin, format: 'service tweet (JSON Lines, read as Latin-1)', records: 2 },
      { file: utf8, format: 'service tweet (JSON Lines)', records: 3 },
    ]);
    expect(stored(converted).map((r) => r.full_text)).toEqual(['café au lait', '“quoted” for €5', ...TEXTS]);
  });

  it('zip entries too: a UTF-16 entry imported, a Latin-1 entry refused by its name, or converted with --encoding latin1', async () => {
    const file = join(tempDir(), 'export.zip');
    const zip = new yazl.ZipFile();
    zip.addBuffer(utf16(jsonl(1897000000000000751n), false), 'a-utf16.jsonl');
    zip.addBuffer(Buffer.from(jsonl(1897000000000000761n, ['café']), 'latin1'), 'b-latin1.jsonl');
    zip.end();
    await new Promise<void>((done, fail) => zip.outputStream.pipe(createWriteStream(file)).on('close', done).on('error', fail));

    const dataDir = tempDir();
    const { code, report } = await importCli(dataDir, file);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.files).toEqual([
      { file: `${file}!a-utf16.jsonl`, format: 'service tweet (JSON Lines, read as UTF-16 LE)', records: 3 },
      { file: `${file}!b-latin1.jsonl`, format: expect.stringMatching(/^not imported: not valid UTF-8 at byte [\d,]+ \(0xE9\); /), records: 0 },
    ]);
    expect(stored(dataDir).map((r) => r.full_text)).toEqual(TEXTS);
    const converted = tempDir();
    expect((await importCli(converted, '--encoding', 'latin1', file)).code).toBe(0);
    expect(stored(converted).map((r) => r.full_text)).toEqual([...TEXTS, 'café']);
  });

  it('--encoding takes latin1 or utf8 only', async () => {
    const cli = await runCli('import', '--encoding', 'klingon', 'x.jsonl', '--data-dir', tempDir());
    expect(cli.code).toBe(2);
    expect(cli.err).toContain("--encoding takes latin1 (or utf8, the default), not 'klingon'");
  });

  it('invalid UTF-8 deep in a large file: refused with the exact offset across read chunks, nothing imported', async () => {
    const dir = tempDir();
    const dataDir = tempDir();
    const file = join(dir, 'large.jsonl');
    const [head, tail] = tweet('1897000000000000901', '\u0000').split('\\u0000') as [string, string];
    /** A JSONL line whose full_text is `text` bytes, placed raw. */
    const line = (id: string, text: Buffer) => {
      const [h, t] = tweet(id, '\u0000').split('\\u0000') as [string, string];
      return Buffer.concat([Buffer.from(h), text, Buffer.from(`${t}\n`)]);
    };
    expect(head.length).toBeGreaterThan(0);
    expect(tail.length).toBeGreaterThan(0);
    // Record 1: a valid 4-byte emoji split by the first read boundary (it must not be flagged).
    const emojiAt = READ_CHUNK_BYTES - 2;
    const pre1 = Buffer.from(head).length;
    const rec1 = line('1897000000000000901', Buffer.concat([Buffer.from('é'.repeat(100)), Buffer.from('a'.repeat(emojiAt - pre1 - 200)), Buffer.from('😀 end')]));
    expect(rec1.subarray(emojiAt, emojiAt + 4)).toEqual(Buffer.from('😀'));
    // Record 2: 0xE9 (Latin-1 é) as the last byte of the second read, the next read starting with 'A'.
    const badAt = 2 * READ_CHUNK_BYTES - 1;
    const pre2 = rec1.length + pre1;
    const rec2 = line('1897000000000000902', Buffer.concat([Buffer.from('déjà '), Buffer.from('a'.repeat(badAt - pre2 - Buffer.from('déjà ').length)), Buffer.from([0xe9]), Buffer.from('A caf')]));
    const rec3 = line('1897000000000000903', Buffer.from('a'.repeat(READ_CHUNK_BYTES)));
    const bytes = Buffer.concat([rec1, rec2, rec3]);
    expect(bytes[badAt]).toBe(0xe9);
    expect(bytes.length).toBeGreaterThan(3 * READ_CHUNK_BYTES);
    writeFileSync(file, bytes);

    const { code, report } = await importCli(dataDir, file);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.files).toEqual([{ file, format: `not imported: not valid UTF-8 at byte 2,097,151 (0xE9); if the file is Latin-1, import it with --encoding latin1`, records: 0 }]);
    expect(stored(dataDir)).toEqual([]);

    // The same file without the bad byte imports whole: the split emoji was valid.
    bytes[badAt] = 0x61;
    writeFileSync(file, bytes);
    const fixed = await importCli(dataDir, file);
    expect(fixed.code).toBe(0);
    const texts = stored(dataDir).map((r) => r.full_text);
    expect(texts).toHaveLength(3);
    expect(texts[0]!.startsWith('é'.repeat(100)) && texts[0]!.endsWith('a😀 end')).toBe(true);
    expect(texts[1]!.startsWith('déjà ') && texts[1]!.endsWith('aaaA caf')).toBe(true);
  });

  it('a file ending inside a character is refused naming where that character starts', async () => {
    const dir = tempDir();
    const dataDir = tempDir();
    const file = join(dir, 'cut.jsonl');
    const whole = Buffer.from(jsonl(1897000000000000951n).trimEnd());
    // Drop the last 3 bytes of a 4-byte emoji at the very end.
    const bytes = Buffer.concat([whole, Buffer.from('\n'), Buffer.from('😀').subarray(0, 1)]);
    writeFileSync(file, bytes);
    const { code, report } = await importCli(dataDir, file);
    expect(code).toBe(EXIT_WITH_PROBLEMS);
    expect(report.files[0]!.format).toBe(`not imported: not valid UTF-8 at byte ${(bytes.length - 1).toLocaleString('en-US')} (the file ends inside a character); if the file is Latin-1, import it with --encoding latin1`);
    expect(stored(dataDir)).toEqual([]);
  });
});
