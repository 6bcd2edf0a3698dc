import { describe, expect, it } from 'vitest';
import { detectText } from '../../src/main/engine/corpus/importers/detect';
import { jsonLines, jsonValues, type RawRecord } from '../../src/main/engine/corpus/importers/scan';

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
async function all(gen: AsyncGenerator<RawRecord>): Promise<[number, string][]> {
  const out: [number, string][] = [];
  for await (const r of gen) out.push([r.line, r.oversized ? '<oversized>' : r.text]);
  return out;
}

const DOC = `window.YTD.tweets.part0 = [
  {"a": "x]}\\"{", "n": 12345678901234567890},
  {"b": [1, {"c": "\\\\"}]},
  "a string",
  7,
  {"broken": }
];`;

describe('record scanners', () => {
  // Every chunk size, so each boundary falls inside strings, escapes and brackets at least once.
  it.each([1, 2, 3, 5, 7, 64, 4096])('cuts a JSON document into its values whatever the chunking (%i)', async (size) => {
    expect(await all(jsonValues(chunked(DOC, size), { skipPrefix: true }))).toEqual([
      [2, '{"a": "x]}\\"{", "n": 12345678901234567890}'],
      [3, '{"b": [1, {"c": "\\\\"}]}'],
      [4, '"a string"'],
      [5, '7'],
      [6, '{"broken": }'],
    ]);
  });

  it('reads concatenated and pretty-printed top-level objects with their start lines', async () => {
    expect(await all(jsonValues(chunked('{\n "a": 1\n}\n{"b":\n2}', 3)))).toEqual([[1, '{\n "a": 1\n}'], [4, '{"b":\n2}']]);
  });

  it('hands over a truncated last value so the caller can report it', async () => {
    expect(await all(jsonValues(chunked('[{"a":1},\n{"b":', 4)))).toEqual([[1, '{"a":1}'], [2, '{"b":']]);
  });

  it.each([1, 4, 100])('splits JSON Lines with line numbers, skipping blank lines (%i)', async (size) => {
    expect(await all(jsonLines(chunked('{"a":1}\n\n{"b":2}\r\n{"c":3}', size)))).toEqual([[1, '{"a":1}'], [3, '{"b":2}\r'], [4, '{"c":3}']]);
  });

  it.each([
    ['{"a":1}\n{"b":2}\n', 'json-lines'],
    ['{\n  "a": 1\n}\n', 'json-document'],
    ['  [\n{"a":1}]', 'json-document'],
    ['\uFEFFwindow.YTD.tweets.part0 = [', 'archive-js'],
    ['{"broken\n{"b":2}\n', 'json-lines'],
    ['', 'unknown'],
    ['id,text\n1,x', 'unknown'],
  ])('detects %j as %s', (head, kind) => {
    expect(detectText(head).kind).toBe(kind);
  });
});
