import { createRow, type Row, type RowData, type RowModel, type Table } from '@tanstack/react-table';

// TanStack's getCoreRowModel makes a Row (about 40 closures) for every row of `data` when the
// table first renders: for 100,000 rows that was 1.9 s of work and 2.8 s of garbage collection
// before the first row could paint (Chromium profile, bench/table.bench.ts). A table shows ~30
// rows at a time, so rows are made when they are read and the most recently read ones are kept.
// Beyond this many, the least recently read are dropped and made again if read again (a Row is
// derived from its `original`; nothing is stored in it that would be lost).
const KEPT_ROWS = 2_000;

/** A getCoreRowModel for TanStack Table whose rows are made on first read (see above). */
export function lazyCoreRowModel<T extends RowData>(): (table: Table<T>) => () => RowModel<T> {
  return (table) => {
    let data: T[] | undefined;
    let model: RowModel<T> | undefined;
    return () => {
      if (model && data === table.options.data) return model;
      data = table.options.data;
      model = lazyModel(table, data);
      return model;
    };
  };
}

function lazyModel<T extends RowData>(table: Table<T>, data: T[]): RowModel<T> {
  const kept = new Map<number, Row<T>>();
  const rowAt = (index: number): Row<T> => {
    let row = kept.get(index);
    if (row) {
      kept.delete(index);
    } else {
      row = createRow(table, table._getRowId(data[index]!, index), data[index]!, index, 0);
      if (kept.size >= KEPT_ROWS) kept.delete(kept.keys().next().value!);
    }
    kept.set(index, row);
    return row;
  };
  const rows = lazyArray(data.length, rowAt);
  let byId: Record<string, Row<T>> | undefined;
  return {
    rows,
    flatRows: rows,
    // Only table.getRow(id) reads it (nothing in the app does); built whole on first use.
    get rowsById() {
      if (!byId) {
        byId = {};
        for (let i = 0; i < data.length; i++) byId[table._getRowId(data[i]!, i)] = rowAt(i);
      }
      return byId;
    },
  };
}

/**
 * An array of `length` items where item `i` is `itemAt(i)`, asked for when read. Reading it whole
 * (map, slice, spread) works and makes every item, as a plain array would have held them.
 */
export function lazyArray<R>(length: number, itemAt: (index: number) => R): R[] {
  return new Proxy(new Array<R>(length), {
    get(target, key, receiver) {
      if (typeof key === 'string') {
        const index = arrayIndex(key);
        if (index >= 0 && index < length) return itemAt(index);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      if (typeof key === 'string') {
        const index = arrayIndex(key);
        if (index >= 0) return index < length;
      }
      return Reflect.has(target, key);
    },
  });
}

/** The index a property key names ("42" is 42), or -1 when it names none ("length", "1.5", "07"). */
function arrayIndex(key: string): number {
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57) return -1;
  const n = Number(key);
  return Number.isInteger(n) && String(n) === key ? n : -1;
}
