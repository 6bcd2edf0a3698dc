import { type ColumnDef, createTable, getCoreRowModel, getSortedRowModel, type RowModel, type SortingState, type Table, type TableOptionsResolved } from '@tanstack/react-table';
import { describe, expect, it, vi } from 'vitest';
import { lazyArray, lazyCoreRowModel } from '../../src/renderer/src/components/table/lazy-row-model';
import { indexSortedRowModel } from '../../src/renderer/src/components/table/sorted-row-model';
import { prng } from '../helpers/prng';

// The app's tables make rows when they are read and sort indices (components/table/): the rows
// and their order must be exactly what TanStack Table's own row models give, for every kind of
// column the app has and the ones it may get.
interface Item {
  id: string;
  text: string;
  word: string;
  count: number;
  maybe: number | undefined;
  when: Date;
  nothing?: string;
}

const columns: ColumnDef<Item, unknown>[] = [
  { accessorKey: 'id', header: 'Id' },
  { accessorKey: 'text', header: 'Text' },
  { accessorKey: 'word', header: 'Word' },
  { accessorKey: 'count', header: 'Count' },
  { accessorKey: 'maybe', header: 'Maybe' },
  { accessorKey: 'maybe', id: 'maybeFirst', header: 'Maybe first', sortUndefined: 'first' },
  { accessorKey: 'maybe', id: 'maybeLast', header: 'Maybe last', sortUndefined: 'last' },
  { accessorKey: 'maybe', id: 'maybeMinus', header: 'Maybe -1', sortUndefined: -1 },
  { accessorKey: 'count', id: 'countInverted', header: 'Inverted', invertSorting: true },
  { accessorKey: 'word', id: 'wordCase', header: 'Word (case)', sortingFn: 'textCaseSensitive' },
  { accessorKey: 'word', id: 'wordLength', header: 'Word length', sortingFn: (a, b) => a.original.word.length - b.original.word.length },
  { accessorKey: 'when', header: 'When' },
  { accessorFn: (row) => row.nothing, id: 'nothing', header: 'Nothing' },
  { accessorKey: 'text', id: 'unsortable', header: 'Unsortable', enableSorting: false },
];

function items(n: number, seed: number): Item[] {
  const r = prng(seed);
  const words = ['apple', 'Apple', 'banana', 'Cherry', 'cherry', 'date', 'Éclair', 'fig', ''];
  return Array.from({ length: n }, (_, i) => ({
    id: (1_900_000_000_000_000_000n + BigInt(r.int(1_000_000))).toString(),
    text: `Row ${r.int(200)}: part ${r.int(30)}b`,
    word: r.pick(words),
    count: r.int(7),
    maybe: r.chance(0.3) ? undefined : r.int(5),
    when: new Date(Date.UTC(2026, 0, 1) + r.int(50) * 60_000),
    ...(i % 3 ? {} : { nothing: undefined }),
  }));
}

let rowIdCalls = 0;

function table(data: Item[], sorting: SortingState, lazy: boolean): Table<Item> {
  const options: TableOptionsResolved<Item> = {
    data,
    columns,
    state: { sorting },
    onStateChange: () => {},
    renderFallbackValue: null,
    getRowId: (row, index) => {
      rowIdCalls++;
      return `${row.id}-${index}`;
    },
    getCoreRowModel: lazy ? lazyCoreRowModel() : getCoreRowModel(),
    getSortedRowModel: lazy ? indexSortedRowModel() : getSortedRowModel(),
  };
  const t = createTable(options);
  t.setOptions((prev) => ({ ...prev, ...options, state: { ...t.initialState, sorting } }));
  return t;
}

const ids = (model: RowModel<Item>) => model.rows.map((row) => row.id);

describe('the lazy row models', () => {
  const sortings: SortingState[] = [
    [],
    [{ id: 'id', desc: false }],
    [{ id: 'text', desc: true }],
    [{ id: 'word', desc: false }],
    [{ id: 'count', desc: true }],
    [{ id: 'maybe', desc: false }],
    [{ id: 'maybe', desc: true }],
    [{ id: 'maybeFirst', desc: true }],
    [{ id: 'maybeLast', desc: false }],
    [{ id: 'maybeMinus', desc: true }],
    [{ id: 'countInverted', desc: false }],
    [{ id: 'wordCase', desc: false }],
    [{ id: 'wordLength', desc: true }],
    [{ id: 'when', desc: false }],
    [{ id: 'nothing', desc: true }],
    [{ id: 'unsortable', desc: false }],
    [{ id: 'no such column', desc: false }],
    [{ id: 'count', desc: false }, { id: 'word', desc: true }, { id: 'maybe', desc: false }],
    [{ id: 'maybeFirst', desc: false }, { id: 'when', desc: true }],
  ];
  // 8 rows: TanStack chooses a column's sorting function from the rows after the tenth, so a short
  // table sorts text as plain values ('basic'), a long one by text or by text and numbers.
  for (const size of [0, 1, 8, 11, 12, 300]) {
    it.each(sortings.map((s) => [JSON.stringify(s), s] as const))(`orders ${size} rows as TanStack does: %s`, (_, sorting) => {
      // A sort kept for a column that is gone is skipped (TanStack warns of it outside production).
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      for (const seed of [1, 2, 3]) {
        const data = items(size, seed * 1000 + size);
        expect(ids(table(data, sorting, true).getRowModel())).toEqual(ids(table(data, sorting, false).getRowModel()));
      }
      warn.mockRestore();
    });
  }

  it('gives rows with the same values, cells and lookups as TanStack, made only when read', () => {
    const data = items(20_000, 7);
    const made: number[] = [];
    const lazy = table(data, [], true);
    const eager = table(data, [], false);
    rowIdCalls = 0;
    const rows = lazy.getRowModel().rows;
    expect(rows.length).toBe(20_000);
    expect(rows[3]!.original).toBe(data[3]);
    // Only the row read was made (TanStack's own model makes all 20,000 up front).
    expect(rowIdCalls).toBe(1);
    const probe = lazyArray(5, (i) => {
      made.push(i);
      return i * 2;
    });
    expect(probe[3]).toBe(6);
    expect(made).toEqual([3]);
    expect([...probe]).toEqual([0, 2, 4, 6, 8]);
    expect(probe.map((x) => x + 1)).toEqual([1, 3, 5, 7, 9]);
    expect(probe.slice(3)).toEqual([6, 8]);
    expect(4 in probe && !(5 in probe)).toBe(true);
    for (const i of [0, 1, 10_000, 19_999]) {
      const a = rows[i]!;
      const b = eager.getRowModel().rows[i]!;
      expect(a.id).toBe(b.id);
      expect(a.index).toBe(b.index);
      expect(a.original).toBe(b.original);
      expect(a.getVisibleCells().map((c) => [c.id, c.getValue()])).toEqual(b.getVisibleCells().map((c) => [c.id, c.getValue()]));
    }
    expect(rows[20_000]).toBeUndefined();
    expect(lazy.getRow(rows[42]!.id).original).toBe(data[42]);
    // Read again, a row is the same object (so an unchanged row on screen is not drawn again).
    expect(rows[12]).toBe(rows[12]);
    // The table's first-sort direction looks at the first row only: strings start ascending.
    expect(lazy.getColumn('text')!.getFirstSortDir()).toBe(eager.getColumn('text')!.getFirstSortDir());
    expect(lazy.getColumn('count')!.getFirstSortDir()).toBe(eager.getColumn('count')!.getFirstSortDir());
  });
});
