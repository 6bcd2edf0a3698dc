import type ExcelJS from 'exceljs';
import { type Cell, type Column, COLUMNS } from './columns';

// How the XLSX sheet looks (issue 16, "XLSX that feels native"): widths, the header's style, the
// date-time format. The column names stay exactly those of the CSV (columns.ts, docs/api.md 8.3:
// never renamed), so the zone is said by the cells' format ("2026-11-22 01:00:00 UTC") and by a
// note on the two timestamp headers, not by a renamed header such as "tweet_created_at (UTC)",
// which would break `df["tweet_created_at"]` in every script that reads the workbook.

/**
 * The date-time cells' format: what Excel shows, with the zone as literal text. The value is
 * a real date-time serial in UTC; Excel has no zones, so the text says which one it is.
 */
export const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss "UTC"';
export const TIME_NOTE = 'UTC. The cells are Excel date-times in UTC, to the millisecond (the JSON and CSV files keep the microseconds).';

// Widths in Excel's unit (the width of "0" in the default font). An id is 19 digits (21 leaves a
// margin), a timestamp in TIME_FORMAT 23 characters; text columns are as wide as most of their
// values without making the row unreadable (a post is up to 280 characters: 60 shows the first
// line's worth, the rest is one click away in the formula bar). Wrap stays off, so every row is
// one line high. A header needs its name plus 3 for the autofilter's button.
const KIND_WIDTHS: Record<Column['kind'], number> = { id: 21, time: 24, int: 10, bool: 8, text: 20 };
const TEXT_WIDTHS: Record<string, number> = {
  full_text: 60,
  user_description: 40,
  urls: 40,
  source: 30,
  wallet_address: 44,
  user_location: 20,
  hashtags: 24,
  user_mentions: 24,
  symbols: 12,
  lang: 6,
};
const FILTER_BUTTON = 3;

export function widthOf(c: Column): number {
  const content = c.kind === 'text' ? (TEXT_WIDTHS[c.name] ?? KIND_WIDTHS.text) : KIND_WIDTHS[c.kind];
  return Math.max(content, c.name.length + FILTER_BUTTON);
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` (serialize/timestamps.ts isoMicros). */
const ISO_MICROS = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})\d{3}Z$/;
/** Excel's first date is 1900-01-01; earlier times stay text rather than become wrong numbers. */
const EXCEL_FIRST_MS = Date.UTC(1900, 0, 1);

/** A staged timestamp as a Date (to the millisecond), or the text itself when it is not one. */
export function timeCell(text: string): Date | string {
  const m = ISO_MICROS.exec(text);
  if (!m) return text;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7]));
  return ms >= EXCEL_FIRST_MS ? new Date(ms) : text;
}

// Shared style objects: exceljs's style manager remembers a style object by identity (a WeakMap),
// so one object per kind costs one lookup a cell instead of building and serialising a style.
const PLAIN: Partial<ExcelJS.Style> = {};
const TIME: Partial<ExcelJS.Style> = { numFmt: TIME_FORMAT };
// The workbook's default font, bold: a font element with only <b/> leaves its size and name to the reader.
const HEADER: Partial<ExcelJS.Style> = { font: { name: 'Calibri', family: 2, scheme: 'minor', size: 11, color: { theme: 1 }, bold: true } };

export interface SheetLayout {
  header: string[];
  widths: number[];
  isTime: boolean[];
  /** The style of each column's data cells. */
  styleOf: Partial<ExcelJS.Style>[];
  headerStyle: Partial<ExcelJS.Style>;
  /** One staged row as cell values: timestamps as Dates, text through `clean`. */
  values(cells: readonly Cell[], clean: (s: string) => string): (Cell | Date)[];
}

export function sheetLayout(): SheetLayout {
  const isTime = COLUMNS.map((c) => c.kind === 'time');
  return {
    header: COLUMNS.map((c) => c.name),
    widths: COLUMNS.map(widthOf),
    isTime,
    styleOf: isTime.map((t) => (t ? TIME : PLAIN)),
    headerStyle: HEADER,
    values(cells, clean) {
      return cells.map((v, i) => (typeof v !== 'string' ? v : isTime[i] ? timeCell(v) : clean(v)));
    },
  };
}
