import type ExcelJS from 'exceljs';
import { loadExcelJs } from './exceljs-lazy';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type Cell, COLUMNS } from './columns';
import { sheetLayout, TIME_NOTE } from './xlsx-layout';

// XLSX from the staged rows (one JSON array of cells per line), streamed with exceljs's
// WorkbookWriter: inline strings (useSharedStrings: false, so no table of every distinct string
// is kept in memory), each row committed as it is written. Ids are written as strings, so they are
// text cells and Excel shows all 19 digits. A sheet holds Excel's 1,048,576 rows (header included);
// the next rows continue on "tweets 2", "tweets 3", each with the header again.
//
// So that it opens like a sheet made in Excel (issue 16): timestamps are date-time cells in UTC
// (sortable, filterable by year/month/day, usable in formulas) shown as "2026-11-22 01:00:00 UTC";
// the header row is bold and frozen, has an autofilter over every row of the sheet, and each
// column has a width that fits its content (xlsx-layout.ts). Text is never altered beyond what
// the format forces (characters XML cannot carry, Excel's 32,767 characters a cell): a string cell
// is never a formula, so the CSV's formula guard has no place here.

export const EXCEL_MAX_ROWS = 1_048_576;
/** Excel's limit on the characters of one cell. */
const EXCEL_MAX_CELL_CHARS = 32_767;
// XML 1.0 cannot carry these code points; exceljs would write a file Excel refuses to open.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function cleanText(s: string): string {
  const t = s.replace(XML_INVALID, '');
  return t.length > EXCEL_MAX_CELL_CHARS ? t.slice(0, EXCEL_MAX_CELL_CHARS) : t;
}

// exceljs pushes each committed row into the zip entry's stream without waiting for it (its
// StreamBuf ignores write()'s backpressure), so a fast producer piles up uncompressed XML in
// memory: 1.4 GB of RSS at a million rows (bench/export.bench.ts). Every DRAIN_EVERY_ROWS rows we
// wait until that entry stream (archiver's PassThrough, a readable-stream v2 object without the
// writableLength getter) holds less than DRAIN_BELOW_BYTES: memory stays flat.
export const DRAIN_EVERY_ROWS = 500;
const DRAIN_BELOW_BYTES = 4 * 1024 * 1024;

interface StreamState {
  length?: number;
}
interface Piped {
  pipes?: { _writableState?: StreamState; _readableState?: StreamState }[];
}

const buffered = (p: NonNullable<Piped['pipes']>[number]): number => (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0);

/** Waits until exceljs's stream for `sheet` has written out what it piled up (see above). */
export async function drainXlsxSheet(sheet: ExcelJS.Worksheet): Promise<void> {
  const pipes = (sheet as unknown as { stream?: Piped }).stream?.pipes ?? [];
  for (const dest of pipes) {
    while (buffered(dest) > DRAIN_BELOW_BYTES) await new Promise((r) => setTimeout(r, 2));
  }
}

export interface XlsxOptions {
  /** Rows per sheet including the header; tests lower it to see the second sheet. */
  maxRowsPerSheet?: number;
}

export async function writeXlsxFromStaged(stagedPath: string, outPath: string, options: XlsxOptions = {}): Promise<number> {
  const perSheet = (options.maxRowsPerSheet ?? EXCEL_MAX_ROWS) - 1;
  // useStyles: the date-time format, the bold header. Every cell gets one of a few shared style
  // objects (layout.styleOf), which exceljs recognises by identity: no per-cell style work.
  const { stream } = await loadExcelJs();
  const workbook = new stream.xlsx.WorkbookWriter({ filename: outPath, useSharedStrings: false, useStyles: true });
  const layout = sheetLayout();
  let sheet: ExcelJS.Worksheet | undefined;
  let sheets = 0;
  let inSheet = 0;
  let rows = 0;
  const startSheet = (): ExcelJS.Worksheet => {
    sheets += 1;
    const s = workbook.addWorksheet(sheets === 1 ? 'tweets' : `tweets ${sheets}`, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] });
    // Widths go out with the first row (<cols> precedes <sheetData>).
    s.columns = layout.widths.map((width) => ({ width }));
    const header = s.addRow(layout.header);
    header.eachCell((cell, col) => {
      cell.style = layout.headerStyle;
      if (layout.isTime[col - 1]) cell.note = TIME_NOTE;
    });
    header.commit();
    inSheet = 0;
    return s;
  };
  // The autofilter is written when the sheet is committed (after its rows), so it can span them all.
  const endSheet = (s: ExcelJS.Worksheet): void => {
    s.autoFilter = { from: { row: 1, column: 1 }, to: { row: inSheet + 1, column: COLUMNS.length } };
    s.commit();
  };
  const lines = createInterface({ input: createReadStream(stagedPath, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    if (!sheet || inSheet === perSheet) {
      if (sheet) endSheet(sheet);
      sheet = startSheet();
    }
    const cells = JSON.parse(line) as Cell[];
    const row = sheet.addRow(layout.values(cells, cleanText));
    for (let c = 0; c < cells.length; c++) row.getCell(c + 1).style = layout.styleOf[c]!;
    row.commit();
    inSheet += 1;
    rows += 1;
    if (rows % DRAIN_EVERY_ROWS === 0) await drainXlsxSheet(sheet);
  }
  endSheet(sheet ?? startSheet());
  await workbook.commit();
  return rows;
}
