import { type Cell, COLUMNS } from './columns';

// CSV as RFC 4180 (comma, CRLF, double quotes doubled), UTF-8 with a byte order mark so Excel
// reads it as UTF-8 (without it, Excel on Windows assumes the ANSI code page and mangles every
// non-ASCII character). pandas (encoding 'utf-8-sig' is not even needed: read_csv strips the BOM)
// and R's readr skip the BOM.
//
// Formula injection (OWASP "CSV injection"): a text cell that begins with = + - @, a tab or a
// carriage return would be run as a formula by Excel, LibreOffice and Google Sheets. Such a cell
// gets a leading apostrophe ('), which these programs treat as "this is text". Only text columns
// are touched: ids, numbers, booleans and timestamps can never begin with those characters.
// JSON output keeps every text exactly.

export const CSV_BOM = '\uFEFF';
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const TEXT_COLUMNS = COLUMNS.map((c) => c.kind === 'text');

function field(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvHeader(): string {
  return CSV_BOM + COLUMNS.map((c) => field(c.name)).join(',') + '\r\n';
}

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  let out = '';
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i]!;
    const s = typeof v === 'string' ? (TEXT_COLUMNS[i] ? neutralise(v) : v) : String(v);
    out += (i ? ',' : '') + field(s);
  }
  return out + '\r\n';
}
