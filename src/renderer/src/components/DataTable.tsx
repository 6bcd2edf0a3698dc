import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type Row,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

export interface DataTableProps<T> {
  data: T[];
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  /** Accessible name of the table ("Posts of @ada"). */
  label: string;
  onOpen?: (row: T) => void;
  /** Infinite lists: called when the last rows come into view. */
  onEndReached?: () => void;
  /** Fixed height in px of the scroll area; rows are virtualised inside it. */
  height?: number;
  rowHeight?: number;
  empty?: ReactNode;
  footer?: ReactNode;
  initialSorting?: SortingState;
}

// Rows rendered beyond the visible ones, so a fast scroll shows no blank band.
const OVERSCAN_ROWS = 8;
// The header row (36 px and its 1 px border), sticky at the top of the one scroll box it shares
// with the rows, so a table scrolled sideways keeps every title over its column.
const HEADER_PX = 37;
// "Near the end": this many rows before the last one.
const END_MARGIN_ROWS = 2;

/**
 * Every list of the app: TanStack Table for columns and sorting, TanStack Virtual so only the
 * visible rows are in the DOM (100,000 rows stay a few dozen nodes), keyboard navigation (arrows,
 * Home/End, Enter opens), fixed row height so nothing jumps while data arrives.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { data, columns, getRowId, onOpen, onEndReached, height: maxHeight = 480, rowHeight = 44 } = props;
  const [sorting, setSorting] = useState<SortingState>(props.initialSorting ?? []);
  const [active, setActive] = useState(0);
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const rows = table.getRowModel().rows;
  // A short list takes the room it needs (at least 3 rows, so a loading or empty state has space);
  // an infinite list keeps its full box so it does not grow a page at a time.
  const height = onEndReached ? maxHeight : Math.min(maxHeight, Math.max(3, rows.length) * rowHeight);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    // The rows start below the sticky header inside the scroll box.
    scrollMargin: HEADER_PX,
  });
  const items = virtualizer.getVirtualItems();
  // The last row actually on screen (not the overscan): the next page is asked for when the
  // analyst sees the end of the list, or at once when the list is shorter than its box.
  const lastVisible = Math.floor(((virtualizer.scrollOffset ?? 0) + height) / rowHeight);

  useEffect(() => {
    if (onEndReached && rows.length > 0 && lastVisible >= rows.length - END_MARGIN_ROWS) onEndReached();
  }, [lastVisible, rows.length, onEndReached]);

  const visibleColumns = table.getVisibleLeafColumns();
  const template = visibleColumns
    .map((c) => (c.columnDef.meta as { grow?: boolean } | undefined)?.grow ? `minmax(${c.getSize()}px, 1fr)` : `${c.getSize()}px`)
    .join(' ');
  // Rows are at least as wide as their columns: scrolled sideways, a row's background and border
  // run to its last column instead of ending at the box's edge.
  const minWidth = visibleColumns.reduce((sum, c) => sum + c.getSize(), 0);

  // One stable click handler for every row, so a row that stays on screen while scrolling is not
  // re-rendered (BodyRow is memoised): scrolling then only renders the rows coming into view.
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  const pick = useCallback((index: number, row: Row<T>) => {
    setActive(index);
    openRef.current?.(row.original);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    let next = active;
    if (e.key === 'ArrowDown') next = Math.min(rows.length - 1, active + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, active - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === 'PageDown') next = Math.min(rows.length - 1, active + Math.floor(height / rowHeight));
    else if (e.key === 'PageUp') next = Math.max(0, active - Math.floor(height / rowHeight));
    else if (e.key === 'Enter' && onOpen && rows[active]) {
      onOpen(rows[active]!.original);
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  return (
    <div className="table" role="table" aria-label={props.label} aria-rowcount={rows.length}>
      <div
        ref={scrollRef}
        className="table-body"
        tabIndex={0}
        onKeyDown={onKeyDown}
        style={{ height: height + HEADER_PX }}
        data-testid="table-body"
      >
        <div className="table-head" role="rowgroup" style={{ minWidth }}>
          {table.getHeaderGroups().map((group) => (
            <div key={group.id} role="row" className="table-row table-header-row" style={{ gridTemplateColumns: template }}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const canSort = header.column.getCanSort();
                return (
                  <div
                    key={header.id}
                    role="columnheader"
                    className={`cell head-cell ${cellClass(header.column.columnDef.meta)}`}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                  >
                    {canSort ? (
                      <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()}>
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        {sorted ? <span className="sort-mark" aria-hidden="true">{sorted === 'asc' ? '▲' : '▼'}</span> : null}
                      </button>
                    ) : (
                      flexRender(header.column.columnDef.header, header.getContext())
                    )}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        {rows.length === 0 ? (
          <div className="table-empty">{props.empty ?? 'Nothing here yet.'}</div>
        ) : (
          <div className="table-canvas" role="rowgroup" style={{ height: virtualizer.getTotalSize(), minWidth }}>
            {items.map((item) => (
              <BodyRow
                key={rows[item.index]!.id}
                row={rows[item.index]!}
                index={item.index}
                start={item.start - HEADER_PX}
                height={rowHeight}
                template={template}
                active={item.index === active}
                clickable={Boolean(onOpen)}
                onPick={pick}
              />
            ))}
          </div>
        )}
      </div>
      {props.footer ? <div className="table-foot">{props.footer}</div> : null}
    </div>
  );
}

interface BodyRowProps<T> {
  row: Row<T>;
  index: number;
  start: number;
  height: number;
  template: string;
  active: boolean;
  clickable: boolean;
  onPick: (index: number, row: Row<T>) => void;
}

function BodyRowImpl<T>({ row, index, start, height, template, active, clickable, onPick }: BodyRowProps<T>) {
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      aria-selected={active}
      className={`table-row body-row ${active ? 'active' : ''} ${clickable ? 'clickable' : ''}`}
      style={{ gridTemplateColumns: template, height, transform: `translateY(${start}px)` }}
      onClick={() => onPick(index, row)}
    >
      {row.getVisibleCells().map((cell) => (
        <div key={cell.id} role="cell" className={`cell ${cellClass(cell.column.columnDef.meta)}`}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </div>
      ))}
    </div>
  );
}

const BodyRow = memo(BodyRowImpl) as typeof BodyRowImpl;

/** A column's meta: `numeric` right-aligns it; `sticky` keeps it at the right edge (row actions). */
function cellClass(meta: unknown): string {
  const m = meta as { numeric?: boolean; sticky?: boolean } | undefined;
  return `${m?.numeric ? 'num' : ''} ${m?.sticky ? 'sticky-end' : ''}`;
}
