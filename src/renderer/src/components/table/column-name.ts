import type { Column } from '@tanstack/react-table';

/** A column's title as words: its header when that is text, else its id. */
export function columnName<T>(column: Column<T, unknown>): string {
  const header = column.columnDef.header;
  return typeof header === 'string' && header.trim() ? header : column.id;
}
