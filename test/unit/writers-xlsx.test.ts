import ExcelJS from 'exceljs';
import { writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLUMNS, type Cell } from '../../src/main/engine/jobs/writers/columns';
import { writeXlsxFromStaged } from '../../src/main/engine/jobs/writers/xlsx';
import { tempDir } from '../helpers/temp';
import { readXlsx } from '../fixtures/data-files';

// The XLSX writer: ids as text cells, numbers as numbers, a continuation sheet past the row limit
// (lowered here from Excel's 1,048,576 so the test stays small), characters XML cannot carry dropped.

function stagedRows(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    const cells: Cell[] = COLUMNS.map((c) => (c.kind === 'int' ? i : c.kind === 'bool' ? i % 2 === 0 : c.kind === 'id' ? `18500000000000000${String(i).padStart(2, '0')}` : `text ${i}`));
    cells[COLUMNS.findIndex((c) => c.name === 'full_text')] = `=not a formula\u0001 ${i}`;
    out += JSON.stringify(cells) + '\n';
  }
  return out;
}

describe('xlsx writer', () => {
  it('continues on a new sheet with the header again once a sheet is full', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'rows.jsonl'), stagedRows(7));
    const rows = await writeXlsxFromStaged(join(dir, 'rows.jsonl'), join(dir, 'out.xlsx'), { maxRowsPerSheet: 4 });
    expect(rows).toBe(7);
    const book = await readXlsx(readFileSync(join(dir, 'out.xlsx')));
    expect(book.sheets).toEqual(['tweets', 'tweets 2', 'tweets 3']);
    const [header, ...data] = book.rows;
    expect(header).toEqual(COLUMNS.map((c) => c.name));
    expect(data).toHaveLength(7);
    const id = COLUMNS.findIndex((c) => c.name === 'id_str');
    const text = COLUMNS.findIndex((c) => c.name === 'full_text');
    const count = COLUMNS.findIndex((c) => c.name === 'reply_count');
    expect(data.map((r) => r[id])).toEqual(Array.from({ length: 7 }, (_, i) => `18500000000000000${String(i).padStart(2, '0')}`));
    expect(data[3]![text]).toBe('=not a formula 3'); // a string cell, never a formula; \u0001 dropped
    expect(data[3]![count]).toBe(3);
    for (const sheet of book.sheets) expect(book.cellTypes.get(`${sheet}:${id + 1}`)).toBe(3); // ValueType.String
  });

  it('freezes the header and filters every row of each sheet, the continuation sheets too', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'rows.jsonl'), stagedRows(7));
    await writeXlsxFromStaged(join(dir, 'rows.jsonl'), join(dir, 'out.xlsx'), { maxRowsPerSheet: 4 });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(join(dir, 'out.xlsx')) as unknown as ArrayBuffer);
    // 7 rows at 3 a sheet: 3, 3 and 1, each under its own header.
    expect(book.worksheets.map((s) => s.autoFilter)).toEqual(['A1:AH4', 'A1:AH4', 'A1:AH2']);
    for (const sheet of book.worksheets) {
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(sheet.getColumn(1).width).toBe(21);
    }
  });

  it('writes a header-only workbook for a job without rows', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'rows.jsonl'), '');
    await writeXlsxFromStaged(join(dir, 'rows.jsonl'), join(dir, 'out.xlsx'));
    const book = await readXlsx(readFileSync(join(dir, 'out.xlsx')));
    expect(book.sheets).toEqual(['tweets']);
    expect(book.rows).toEqual([COLUMNS.map((c) => c.name)]);
    const full = new ExcelJS.Workbook();
    await full.xlsx.load(readFileSync(join(dir, 'out.xlsx')) as unknown as ArrayBuffer);
    expect(full.worksheets[0]!.autoFilter).toBe('A1:AH1');
  });
});
