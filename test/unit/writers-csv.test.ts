import { describe, expect, it } from 'vitest';
import { COLUMNS, type Cell } from '../../src/main/engine/jobs/writers/columns';
import { csvHeader, csvLine, neutralise } from '../../src/main/engine/jobs/writers/csv';
import { parseCsv } from '../fixtures/data-files';

// The CSV writer: RFC 4180 quoting that a reader gets back exactly, a UTF-8 BOM, and formula
// starters neutralised in text columns only.

const idx = (name: string) => COLUMNS.findIndex((c) => c.name === name);

function row(overrides: Record<string, Cell>): Cell[] {
  const cells: Cell[] = COLUMNS.map((c) => (c.kind === 'int' ? 0 : c.kind === 'bool' ? false : ''));
  for (const [k, v] of Object.entries(overrides)) cells[idx(k)] = v;
  return cells;
}

describe('csv writer', () => {
  it('starts with a BOM and the column names', () => {
    const h = csvHeader();
    expect(h.startsWith('\uFEFF')).toBe(true);
    expect(parseCsv(h.slice(1))[0]).toEqual(COLUMNS.map((c) => c.name));
  });

  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+33 6 12', "'+33 6 12"],
    ['-5 points', "'-5 points"],
    ['@handle first', "'@handle first"],
    ['\tindented', "'\tindented"],
    ['\rcarriage', "'\rcarriage"],
    ['plain = text', 'plain = text'],
    ['', ''],
  ])('neutralises %j as %j', (input, output) => {
    expect(neutralise(input)).toBe(output);
  });

  it('round-trips quotes, commas and newlines, keeps 19-digit ids as plain digits and touches only text columns', () => {
    const text = 'He said "hi", then\r\nleft, =1+1';
    const line = csvLine(row({ id_str: '1850000000000000001', full_text: text, user_name: '=cmd|calc', reply_count: 12, user_verified: true }));
    const [parsed] = parseCsv(line);
    expect(parsed![idx('id_str')]).toBe('1850000000000000001');
    expect(parsed![idx('full_text')]).toBe(text);
    expect(parsed![idx('user_name')]).toBe("'=cmd|calc");
    expect(parsed![idx('reply_count')]).toBe('12');
    expect(parsed![idx('user_verified')]).toBe('true');
    expect(line.endsWith('\r\n')).toBe(true);
    expect(parsed).toHaveLength(COLUMNS.length);
  });
});
