import type { ColumnSizingState, VisibilityState } from '@tanstack/react-table';

// Each table's column widths and hidden columns, remembered per table on this machine (issue 15:
// "a column chooser that is remembered per table"), in localStorage like the other view settings.
// Keyed by the table's key (DataTable's tableKey, else its label). Bounded: a stored layout is
// dropped unless it is an object of at most MAX_COLUMNS entries of the right types, so a damaged or
// edited entry costs its layout, never the view.
const PREFIX = 'skein.table.v1.';
const MAX_COLUMNS = 64;
/** Widths are kept within these, as the resize handle keeps them. */
export const MIN_COLUMN_PX = 48;
export const MAX_COLUMN_PX = 1600;

export interface TableLayout {
  sizing: ColumnSizingState;
  /** Column id -> shown (true) or hidden (false), for the columns the analyst toggled. */
  hidden: VisibilityState;
}

export function loadTableLayout(key: string): TableLayout {
  try {
    const raw = JSON.parse(window.localStorage.getItem(PREFIX + key) ?? 'null') as unknown;
    if (!raw || typeof raw !== 'object') return empty();
    const { sizing, hidden } = raw as Record<string, unknown>;
    return { sizing: entries(sizing, (v) => typeof v === 'number' && v >= MIN_COLUMN_PX && v <= MAX_COLUMN_PX), hidden: entries(hidden, (v) => typeof v === 'boolean') };
  } catch {
    return empty();
  }
}

export function saveTableLayout(key: string, layout: TableLayout): void {
  try {
    const sizing = Object.fromEntries(Object.entries(layout.sizing).map(([id, px]) => [id, Math.round(Math.min(MAX_COLUMN_PX, Math.max(MIN_COLUMN_PX, px)))]));
    // Only columns shown or hidden by hand are kept: a column added later starts as its table says.
    const hidden = layout.hidden;
    if (Object.keys(sizing).length === 0 && Object.keys(hidden).length === 0) window.localStorage.removeItem(PREFIX + key);
    else window.localStorage.setItem(PREFIX + key, JSON.stringify({ sizing, hidden }));
  } catch {
    // Not kept, but in force until the view closes.
  }
}

const empty = (): TableLayout => ({ sizing: {}, hidden: {} });

function entries<V>(value: unknown, ok: (v: unknown) => boolean): Record<string, V> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, V> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_COLUMNS)) if (ok(v)) out[k] = v as V;
  return out;
}
