import type { CsvDialect } from '../params';
import { type Cell, COLUMNS } from './columns';

// CSV as RFC 4180 (comma, CRLF, double quotes doubled), in two dialects (issue 16, csv_dialect):
//
// excel: UTF-8 with a byte order mark so Excel reads it as UTF-8 (without it, Excel on Windows
// assumes the ANSI code page and mangles every non-ASCII character), and the formula guard
// (OWASP "CSV injection"): a text cell that begins with = + - @, a tab or a carriage return would
// be run as a formula by Excel, LibreOffice and Google Sheets, so it gets a leading apostrophe
// ('), which these programs treat as "this is text". Only text columns are touched: ids, numbers,
// booleans and timestamps can never begin with those characters.
//
// plain: no BOM and no guard: every text byte for byte, as pandas, R and csv readers expect. The
// guard is data to them: it prefixed every reply (replies begin with "@"), 651 of 651 rows of a
// reply export and 1,071 of 2,000 rows of a `lang:en` search. A BOM becomes part of the first
// column's name for Python's csv module and R's read.csv.
//
// Both dialects end records with CRLF (RFC 4180; pandas, readr, data.table and Python's csv read
// it), so they differ only in the BOM and the guard (writers/excel-csv.ts turns one into the other).

export const CSV_BOM = '\uFEFF';
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
/** Whether each column (COLUMNS order) holds free text, the only cells the guard touches. */
export const TEXT_COLUMNS: readonly boolean[] = COLUMNS.map((c) => c.kind === 'text');

function field(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvHeader(dialect: CsvDialect = 'excel'): string {
  return (dialect === 'excel' ? CSV_BOM : '') + COLUMNS.map((c) => field(c.name)).join(',') + '\r\n';
}

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvLine(cells: readonly Cell[], dialect: CsvDialect = 'excel'): string {
  const guard = dialect === 'excel';
  let out = '';
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i]!;
    const s = typeof v === 'string' ? (guard && TEXT_COLUMNS[i] ? neutralise(v) : v) : String(v);
    out += (i ? ',' : '') + field(s);
  }
  return out + '\r\n';
}
