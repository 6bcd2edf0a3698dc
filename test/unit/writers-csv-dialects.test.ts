import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLUMNS, type Cell } from '../../src/main/engine/jobs/writers/columns';
import { csvHeader, csvLine } from '../../src/main/engine/jobs/writers/csv';
import { excelCsvOf } from '../../src/main/engine/jobs/writers/excel-csv';

// A CSV job stages the plain dialect and finalize makes the excel one from it (excel-csv.ts).
// Whatever the cells and wherever the 1 MiB reads split the file, that must give exactly the bytes
// csv.ts writes for excel (the file Skein wrote before dialects existed), and leave an excel file
// as it is.

// Text made of what CSV and the guard care about, so the generator hits every state often.
const piece = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '"', '""', ',', "'", 'a', 'é', '東', '🎉', ' ', '1');
const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
const cell = (kind: string): fc.Arbitrary<Cell> =>
  kind === 'int' ? fc.integer({ min: -5, max: 1e9 }) : kind === 'bool' ? fc.boolean() : kind === 'text' ? text : fc.constantFrom('', '1850000000000000001', '2025-01-01T00:00:00.000000Z');
const row = fc.tuple(...COLUMNS.map((c) => cell(c.kind)));

describe('excel dialect from the staged plain CSV', () => {
  it('equals the excel writer byte for byte, for any cells and any read size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 6 }), fc.integer({ min: 1, max: 64 }), async (rows, chunk) => {
        const plain = Buffer.from(csvHeader('plain') + rows.map((r) => csvLine(r, 'plain')).join(''));
        const excel = csvHeader('excel') + rows.map((r) => csvLine(r, 'excel')).join('');
        expect((await excelCsvOf(plain, chunk)).toString('utf8')).toBe(excel);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves a file already in the excel dialect as it is (a job staged by an older Skein)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 6 }), fc.integer({ min: 1, max: 64 }), async (rows, chunk) => {
        const excel = csvHeader('excel') + rows.map((r) => csvLine(r, 'excel')).join('');
        expect((await excelCsvOf(Buffer.from(excel), chunk)).toString('utf8')).toBe(excel);
      }),
      { numRuns: 200 },
    );
  });

  it('plain differs from excel only by the BOM and the guard', () => {
    const cells: Cell[] = COLUMNS.map((c) => (c.kind === 'text' ? '@alice =1+1' : c.kind === 'int' ? -1 : c.kind === 'bool' ? true : '-'));
    expect(csvHeader('plain')).toBe(csvHeader('excel').slice(1));
    expect(csvLine(cells, 'plain')).not.toContain("'");
    expect(csvLine(cells, 'excel').replace(/'@/g, '@')).toBe(csvLine(cells, 'plain'));
  });
});
