import {
  type Column,
  type Row,
  type RowData,
  type RowModel,
  type SortingFn,
  sortingFns,
  type SortingState,
  type Table,
} from '@tanstack/react-table';
import { lazyArray } from './lazy-row-model';

// TanStack's getSortedRowModel copies every row (`{ ...row }`, about 40 properties) before it
// sorts, and needs every Row made first, which a lazy core row model (lazy-row-model.ts) avoids.
// This one sorts the rows' indices instead, with TanStack's own comparison: the same sorting
// function per column (chosen as TanStack chooses it), `sortUndefined`, `invertSorting`, desc,
// several columns in order, and ties kept in their original order. The rows of the result are
// the core model's rows, read when the table reads them. test/unit/table-sort-order.test.ts
// checks that the order equals TanStack's on every kind of value.

/** A getSortedRowModel for a table whose core rows are `table.options.data` (no sub-rows). */
export function indexSortedRowModel<T extends RowData>(): (table: Table<T>) => () => RowModel<T> {
  return (table) => {
    let sorting: SortingState | undefined;
    let pre: RowModel<T> | undefined;
    let model: RowModel<T> | undefined;
    return () => {
      const nextSorting = table.getState().sorting;
      const nextPre = table.getPreSortedRowModel();
      if (model && nextSorting === sorting && nextPre === pre) return model;
      sorting = nextSorting;
      pre = nextPre;
      if (!nextPre.rows.length || !nextSorting?.length) {
        model = nextPre;
        return model;
      }
      const order = sortOrder(table, table.options.data, nextSorting);
      const rows = lazyArray(order.length, (p) => nextPre.rows[order[p]!]!);
      model = {
        rows,
        flatRows: rows,
        get rowsById() {
          return nextPre.rowsById;
        },
      };
      return model;
    };
  };
}

interface SortKey<T> {
  id: string;
  desc: boolean;
  sortUndefined: false | -1 | 1 | 'first' | 'last' | undefined;
  invert: boolean;
  sortingFn: SortingFn<T>;
}

/** The indices of `data` in the order TanStack Table 8's getSortedRowModel gives its rows. */
export function sortOrder<T extends RowData>(table: Table<T>, data: readonly T[], sorting: SortingState): number[] {
  const keys: SortKey<T>[] = [];
  const values: Record<string, unknown[]> = {};
  for (const entry of sorting) {
    const column = table.getColumn(entry.id);
    if (!column?.getCanSort() || !column.accessorFn) continue;
    const accessor = column.accessorFn;
    const columnValues = data.map((original, index) => accessor(original, index));
    values[entry.id] = columnValues;
    keys.push({
      id: entry.id,
      desc: entry.desc ?? false,
      sortUndefined: column.columnDef.sortUndefined,
      invert: column.columnDef.invertSorting ?? false,
      sortingFn: sortingFnOf(column, columnValues),
    });
  }
  // What a sorting function reads of a row: its value per column (TanStack's row.getValue), its
  // index and its data. One small object per row, made only while sorting.
  const rows = data.map((original, index) => ({ index, original, getValue: (id: string) => values[id]?.[index] }) as unknown as Row<T>);
  rows.sort((rowA, rowB) => {
    for (const key of keys) {
      let sortInt = 0;
      if (key.sortUndefined) {
        const aUndefined = rowA.getValue(key.id) === undefined;
        const bUndefined = rowB.getValue(key.id) === undefined;
        if (aUndefined || bUndefined) {
          if (key.sortUndefined === 'first') return aUndefined ? -1 : 1;
          if (key.sortUndefined === 'last') return aUndefined ? 1 : -1;
          sortInt = aUndefined && bUndefined ? 0 : aUndefined ? key.sortUndefined : -key.sortUndefined;
        }
      }
      if (sortInt === 0) sortInt = key.sortingFn(rowA, rowB, key.id);
      if (sortInt !== 0) {
        if (key.desc) sortInt *= -1;
        if (key.invert) sortInt *= -1;
        return sortInt;
      }
    }
    return rowA.index - rowB.index;
  });
  return rows.map((row) => row.index);
}

// TanStack's column.getSortingFn(), except that 'auto' looks at the values given rather than at
// the table's rows (which would make every Row). Its choice is kept exactly, including that
// 8.21.3 looks at the rows after the first ten (`flatRows.slice(10)`).
function sortingFnOf<T extends RowData>(column: Column<T, unknown>, values: readonly unknown[]): SortingFn<T> {
  const named = column.columnDef.sortingFn;
  if (typeof named === 'function') return named;
  if (named !== 'auto') return column.getSortingFn();
  let isString = false;
  for (let i = 10; i < values.length; i++) {
    const value = values[i];
    if (Object.prototype.toString.call(value) === '[object Date]') return sortingFns.datetime;
    if (typeof value === 'string') {
      isString = true;
      if (value.split(/([0-9]+)/gm).length > 1) return sortingFns.alphanumeric;
    }
  }
  return isString ? sortingFns.text : sortingFns.basic;
}
