import {
  type Column,
  type ColumnDef,
  type ColumnSizingState,
  flexRender,
  type Row,
  type SortingState,
  useReactTable,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type MutableRefObject,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { loadTableLayout, MAX_COLUMN_PX, MIN_COLUMN_PX, saveTableLayout } from '../stores/table-layout';
import { useUi } from '../stores/ui';
import { ColumnChooser } from './table/ColumnChooser';
import { columnName } from './table/column-name';
import { copyText, rowJson } from './table/copy';
import { lazyCoreRowModel } from './table/lazy-row-model';
import { RowMenu, type RowMenuItem } from './table/RowMenu';
import { indexSortedRowModel } from './table/sorted-row-model';

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
  /** Where this table's widths and hidden columns are remembered (default: its label). */
  tableKey?: string;
  /** What "Copy id" copies, named in its menu item (default: the row id, "Copy id"). */
  copyId?: { label: string; value: (row: T) => string };
}

// Rows rendered beyond the visible ones, so a fast scroll shows no blank band.
const OVERSCAN_ROWS = 8;
// The header row (36 px and its 1 px border), sticky at the top of the one scroll box it shares
// with the rows, so a table scrolled sideways keeps every title over its column.
const HEADER_PX = 37;
// "Near the end": this many rows before the last one.
const END_MARGIN_ROWS = 2;
// Tables with fewer columns than this have no column chooser: there is nothing worth hiding.
const CHOOSER_MIN_COLUMNS = 4;

/**
 * Every list of the app: TanStack Table for columns and sorting, TanStack Virtual so only the
 * visible rows are in the DOM (100,000 rows stay a few dozen nodes), keyboard navigation (arrows,
 * Home/End, Enter opens), fixed row height so nothing jumps while data arrives. Rows are made
 * when shown and sorted as indices (table/lazy-row-model.ts, table/sorted-row-model.ts); the
 * rows follow the scroll in their own component (VirtualRows), so scrolling renders no header.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { data, columns, getRowId, onOpen, onEndReached, height: maxHeight = 480, rowHeight = 44 } = props;
  const layoutKey = props.tableKey ?? props.label;
  const [sorting, setSorting] = useState<SortingState>(props.initialSorting ?? []);
  const [active, setActive] = useState(0);
  const [sizing, setSizing] = useState<ColumnSizingState>(() => loadTableLayout(layoutKey).sizing);
  const [hidden, setHidden] = useState<VisibilityState>(() => loadTableLayout(layoutKey).hidden);
  // Columns marked `hidden` in their meta start hidden (the chooser shows them); the analyst's choice wins.
  const visibility = useMemo(() => ({ ...hiddenByDefault(columns), ...hidden }), [columns, hidden]);
  const [menu, setMenu] = useState<{ x: number; y: number; row: T } | null>(null);
  const toast = useUi((s) => s.toast);
  useEffect(() => saveTableLayout(layoutKey, { sizing, hidden }), [layoutKey, sizing, hidden]);
  const table = useReactTable({
    data,
    columns,
    state: { sorting, columnSizing: sizing, columnVisibility: visibility },
    onSortingChange: setSorting,
    onColumnSizingChange: setSizing,
    // Only what differs from the defaults is kept, so a default can change in a later version.
    onColumnVisibilityChange: (change) => {
      const next = typeof change === 'function' ? change(visibility) : change;
      const defaults = hiddenByDefault(columns);
      setHidden(Object.fromEntries(Object.entries(next).filter(([id, shown]) => shown !== (defaults[id] ?? true))));
    },
    columnResizeMode: 'onChange',
    defaultColumn: { minSize: MIN_COLUMN_PX, maxSize: MAX_COLUMN_PX },
    getRowId: (row) => getRowId(row),
    getCoreRowModel: lazyCoreRowModel(),
    getSortedRowModel: indexSortedRowModel(),
  });
  const rows = table.getRowModel().rows;
  // A short list takes the room it needs (at least 3 rows, so a loading or empty state has space);
  // an infinite list keeps its full box so it does not grow a page at a time.
  const height = onEndReached ? maxHeight : Math.min(maxHeight, Math.max(3, rows.length) * rowHeight);
  // The scroll box as state, not only a ref: VirtualRows sits inside it, and a child's effects run
  // before its parent's ref is set, so the virtualizer would start with no box to follow.
  const [scrollBox, setScrollBox] = useState<HTMLDivElement | null>(null);
  const virtualizerRef = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);

  const visibleColumns = table.getVisibleLeafColumns();
  // Rows are at least as wide as their columns: scrolled sideways, a row's background and border
  // run to its last column instead of ending at the box's edge.
  const minWidth = visibleColumns.reduce((sum, c) => sum + c.getSize(), 0);
  // The widths reach the header and the rows as CSS variables (styles.css, cellStyle), so resizing a column
  // restyles the rows without rendering them again. A growing column takes the room left over
  // (at least its size), unless the analyst gave it a width by hand.
  const widths: Record<string, string> = { '--table-width': `${minWidth}px` };
  visibleColumns.forEach((c, i) => {
    const grow = (c.columnDef.meta as { grow?: boolean } | undefined)?.grow && sizing[c.id] === undefined;
    widths[`--flex-${i}`] = grow ? '1 1 0px' : 'none';
    widths[`--w-${i}`] = grow ? 'auto' : `${c.getSize()}px`;
    widths[`--min-${i}`] = grow ? `${c.getSize()}px` : '0px';
  });

  // One stable click handler for every row, so a row that stays on screen while scrolling is not
  // re-rendered (BodyRow is memoised): scrolling then only renders the rows coming into view.
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  const pick = useCallback((index: number, row: Row<T>) => {
    setActive(index);
    openRef.current?.(row.original);
  }, []);
  const showMenu = useCallback((index: number, row: Row<T>, x: number, y: number) => {
    setActive(index);
    setMenu({ x, y, row: row.original });
  }, []);

  const idOf = props.copyId?.value ?? getRowId;
  const copy = (what: string, text: string) =>
    void copyText(text).then((ok) => toast(ok ? `Copied ${what}.` : `Could not copy ${what}: the browser refused the clipboard.`, ok ? 'info' : 'error'));
  const menuItems = (row: T): RowMenuItem[] => [
    { label: props.copyId?.label ?? 'Copy id', run: () => copy(`id ${idOf(row)}`, idOf(row)) },
    { label: 'Copy row as JSON', run: () => copy('the row as JSON', rowJson(row)) },
    ...(onOpen ? [{ label: 'Open', run: () => onOpen(row) }] : []),
  ];
  const closeMenu = useCallback(() => setMenu(null), []);

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
    } else if ((e.key === 'c' || e.key === 'C') && (e.ctrlKey || e.metaKey) && rows[active] && !window.getSelection()?.toString()) {
      // Ctrl/Cmd+C on a table with no text selected copies the active row's id.
      copy(`id ${idOf(rows[active]!.original)}`, idOf(rows[active]!.original));
      e.preventDefault();
      return;
    } else if ((e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) && rows[active]) {
      const box = scrollBox?.getBoundingClientRect();
      setMenu({ x: (box?.left ?? 0) + 24, y: (box?.top ?? 0) + HEADER_PX + (active + 1) * rowHeight - (scrollBox?.scrollTop ?? 0), row: rows[active]!.original });
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    setActive(next);
    virtualizerRef.current?.scrollToIndex(next, { align: 'auto' });
  };

  const allColumns = table.getAllLeafColumns();
  const sortedLoadedOnly = Boolean(onEndReached) && sorting.length > 0;
  const tools = allColumns.length >= CHOOSER_MIN_COLUMNS || sortedLoadedOnly;
  return (
    <div className="table" role="table" aria-label={props.label} aria-rowcount={rows.length} style={widths as CSSProperties}>
      {tools ? (
        <div className="table-tools">
          {sortedLoadedOnly ? (
            <span className="sort-note" role="note">
              Sorted among the {rows.length.toLocaleString()} rows loaded so far, not the whole result: the list keeps loading in the server's order as you scroll.{' '}
              <button type="button" className="link" onClick={() => setSorting([])}>
                Clear sort
              </button>
            </span>
          ) : (
            <span className="muted tools-hint">Right-click a row to copy its id or the row as JSON. Drag a column's edge to resize it.</span>
          )}
          {allColumns.length >= CHOOSER_MIN_COLUMNS ? (
            <ColumnChooser
              columns={allColumns}
              onReset={() => {
                setSizing({});
                setHidden({});
              }}
            />
          ) : null}
        </div>
      ) : null}
      <div
        ref={setScrollBox}
        className="table-body"
        tabIndex={0}
        onKeyDown={onKeyDown}
        style={{ height: height + HEADER_PX }}
        data-testid="table-body"
      >
        <div className="table-head" role="rowgroup">
          {table.getHeaderGroups().map((group) => (
            <div key={group.id} role="row" className="table-row table-header-row">
              {group.headers.map((header, i) => {
                const sorted = header.column.getIsSorted();
                const canSort = header.column.getCanSort();
                return (
                  <div
                    key={header.id}
                    role="columnheader"
                    className={`cell head-cell ${cellClass(header.column.columnDef.meta)}`}
                    style={cellStyle(i)}
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
                    {header.column.getCanResize() && !(header.column.columnDef.meta as { sticky?: boolean } | undefined)?.sticky ? (
                      <div
                        // A mouse and touch handle: left out of the accessible tree, where it would be read as
                        // part of the column's name; the widths are only looks (the chooser and keys do the rest).
                        aria-hidden="true"
                        title={`Drag to resize ${columnName(header.column)}; double-click for its default width`}
                        className={`col-resizer ${header.column.getIsResizing() ? 'resizing' : ''}`}
                        onMouseDown={header.getResizeHandler()}
                        onTouchStart={header.getResizeHandler()}
                        onDoubleClick={() => header.column.resetSize()}
                        onClick={(e) => e.stopPropagation()}
                      />
                    ) : null}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        {rows.length === 0 ? (
          <div className="table-empty">{props.empty ?? 'Nothing here yet.'}</div>
        ) : (
          <VirtualRows
            rows={rows}
            columns={visibleColumns}
            rowHeight={rowHeight}
            height={height}
            active={active}
            clickable={Boolean(onOpen)}
            onPick={pick}
            onMenu={showMenu}
            onEndReached={onEndReached}
            scrollBox={scrollBox}
            virtualizerRef={virtualizerRef}
          />
        )}
      </div>
      {props.footer ? <div className="table-foot">{props.footer}</div> : null}
      {menu ? <RowMenu x={menu.x} y={menu.y} items={menuItems(menu.row)} onClose={closeMenu} /> : null}
    </div>
  );
}

interface VirtualRowsProps<T> {
  rows: Row<T>[];
  /** The shown columns (a new array when one is shown, hidden or moved): rows are drawn again then. */
  columns: Column<T, unknown>[];
  rowHeight: number;
  /** The height of the rows' part of the scroll box. */
  height: number;
  active: number;
  clickable: boolean;
  onPick: (index: number, row: Row<T>) => void;
  onMenu: (index: number, row: Row<T>, x: number, y: number) => void;
  onEndReached?: () => void;
  scrollBox: HTMLDivElement | null;
  /** Where the table's keyboard handling finds the virtualizer (to scroll a row into view). */
  virtualizerRef: MutableRefObject<Virtualizer<HTMLDivElement, Element> | null>;
}

/** The rows on screen (and the overscan), rendered again on every scroll step; nothing else is. */
function VirtualRows<T>({ rows, columns, rowHeight, height, active, clickable, onPick, onMenu, onEndReached, scrollBox, virtualizerRef }: VirtualRowsProps<T>) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollBox,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    // The rows start below the sticky header inside the scroll box.
    scrollMargin: HEADER_PX,
  });
  virtualizerRef.current = virtualizer;
  const items = virtualizer.getVirtualItems();
  // The last row actually on screen (not the overscan): the next page is asked for when the
  // analyst sees the end of the list, or at once when the list is shorter than its box.
  const lastVisible = Math.floor(((virtualizer.scrollOffset ?? 0) + height) / rowHeight);
  const nearEnd = Boolean(onEndReached) && rows.length > 0 && lastVisible >= rows.length - END_MARGIN_ROWS;

  // Away from the end the effect does not run at all: an effect due on every scroll step costs a
  // task of its own per frame (React flushes effects in a posted message).
  useEffect(() => {
    if (nearEnd) onEndReached?.();
  }, [nearEnd ? lastVisible : -1, nearEnd, rows.length, onEndReached]);

  return (
    <div className="table-canvas" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
      {items.map((item) => {
        const row = rows[item.index]!;
        return (
          // Keyed by id, not recycled by slot: a reused row would carry a focused button (Cancel,
          // Retry) over to another job as the list scrolls.
          <BodyRow
            key={row.id}
            row={row}
            columns={columns}
            index={item.index}
            start={item.start - HEADER_PX}
            height={rowHeight}
            active={item.index === active}
            clickable={clickable}
            onPick={onPick}
            onMenu={onMenu}
          />
        );
      })}
    </div>
  );
}

interface BodyRowProps<T> {
  row: Row<T>;
  columns: Column<T, unknown>[];
  index: number;
  start: number;
  height: number;
  active: boolean;
  clickable: boolean;
  onPick: (index: number, row: Row<T>) => void;
  onMenu: (index: number, row: Row<T>, x: number, y: number) => void;
}

function BodyRowImpl<T>({ row, columns: _columns, index, start, height, active, clickable, onPick, onMenu }: BodyRowProps<T>) {
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      aria-selected={active}
      className={`table-row body-row ${active ? 'active' : ''} ${clickable ? 'clickable' : ''}`}
      style={{ height, transform: `translateY(${start}px)` }}
      onClick={() => onPick(index, row)}
      onContextMenu={(e: MouseEvent) => {
        e.preventDefault();
        onMenu(index, row, e.clientX, e.clientY);
      }}
    >
      {row.getVisibleCells().map((cell, i) => {
        // A cut-off value can still be read whole: its text is the cell's tooltip.
        const value = cell.getValue();
        return (
          <div
            key={cell.id}
            role="cell"
            className={`cell ${cellClass(cell.column.columnDef.meta)}`}
            style={cellStyle(i)}
            title={typeof value === 'string' && value.length > 12 ? value : undefined}
          >
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </div>
        );
      })}
    </div>
  );
}

const BodyRow = memo(BodyRowImpl) as typeof BodyRowImpl;

// styles.css gives the first CSS_WIDTH_RULES cells of a row their width from the table's variables
// (`.table-row > .cell:nth-child(n)`); an inline style on each new cell cost 0.6 ms a frame while
// scrolling (React setting three var() properties on ~27 cells, Chromium profile). Columns past
// those rules carry the same as an inline style.
const CSS_WIDTH_RULES = 16;
const cellStyles: CSSProperties[] = [];
/** The i-th shown column's width, as the table's CSS variables set it (one object per column, so rows compare equal). */
function cellStyle(i: number): CSSProperties | undefined {
  if (i < CSS_WIDTH_RULES) return undefined;
  return (cellStyles[i] ??= { flex: `var(--flex-${i})`, width: `var(--w-${i})`, minWidth: `var(--min-${i})` });
}

function hiddenByDefault<T>(columns: ColumnDef<T, unknown>[]): VisibilityState {
  const out: VisibilityState = {};
  for (const c of columns) if ((c.meta as { hidden?: boolean } | undefined)?.hidden && c.id) out[c.id] = false;
  return out;
}

/** A column's meta: `numeric` right-aligns it; `sticky` keeps it at the right edge (row actions). */
function cellClass(meta: unknown): string {
  const m = meta as { numeric?: boolean; sticky?: boolean } | undefined;
  return `${m?.numeric ? 'num' : ''} ${m?.sticky ? 'sticky-end' : ''}`;
}
